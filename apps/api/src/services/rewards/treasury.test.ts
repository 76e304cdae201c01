import { getAssociatedTokenAddressSync } from '@solana/spl-token';
import { Keypair } from '@solana/web3.js';
import { describe, expect, it } from 'vitest';
import { destinationOf, type Treasury } from './treasury.ts';

const treasury = (): Treasury => ({
  owner: Keypair.generate(),
  mint: Keypair.generate().publicKey,
  tokenAccount: Keypair.generate().publicKey,
  decimals: 6,
});

describe('a payout destination', () => {
  it("is the wallet's associated token account of the treasury's mint, derived once", () => {
    const t = treasury();
    const wallet = Keypair.generate().publicKey;
    const first = destinationOf(t, wallet.toBase58());
    expect(first.owner.equals(wallet)).toBe(true);
    expect(first.address.equals(getAssociatedTokenAddressSync(t.mint, wallet))).toBe(true);
    expect(destinationOf(t, wallet.toBase58())).toBe(first);
  });

  it("is the other treasury's own for a second mint", () => {
    const [a, b] = [treasury(), treasury()];
    const wallet = Keypair.generate().publicKey;
    expect(
      destinationOf(b, wallet.toBase58()).address.equals(getAssociatedTokenAddressSync(b.mint, wallet)),
    ).toBe(true);
    expect(
      destinationOf(a, wallet.toBase58()).address.equals(destinationOf(b, wallet.toBase58()).address),
    ).toBe(false);
  });

  it('refuses a wallet that is not an address', () => {
    expect(() => destinationOf(treasury(), 'not-a-wallet')).toThrow();
  });
});
