// The native suite's attacks.rs on the .so: accounts a caller substitutes for the expected ones.
import { ASSOCIATED_TOKEN_PROGRAM_ID, getAssociatedTokenAddressSync } from '@solana/spl-token';
import { describe, expect, it } from 'vitest';
import {
  big,
  SbfHarness,
  expectCode,
  expectOk,
  holdingsAddress,
  keypair,
  MINING_PROGRAM_ID,
  streamerPda,
  UNIT,
} from '../harness.ts';
import {
  ACCOUNT_NOT_ASSOCIATED_TOKEN_ACCOUNT,
  ACCOUNT_NOT_SIGNER,
  ACTIVATE,
  CONSTRAINT_ADDRESS,
  CONSTRAINT_SEEDS,
  CONSTRAINT_TOKEN_MINT,
  CONSTRAINT_TOKEN_OWNER,
  INVALID_HOLDINGS,
  INVALID_PROGRAM_ID,
  replaceKey,
  unsign,
} from './support.ts';

export function attackParity(): void {
  describe('attacks', () => {
    it('holdings not owned by the streamer are rejected', async () => {
      const h = await SbfHarness.withTiers([['Tier 1', 1_000n]]);
      const mint = h.mint.publicKey;
      const victim = h.walletWith(mint, 1_000n);
      const attacker = h.walletWith(mint, 1_000n);
      expectOk(await h.activate(victim.wallet, victim.ata, 'Tier 1'), ACTIVATE);
      expectOk(await h.activate(attacker.wallet, attacker.ata, 'Tier 1'), ACTIVATE);

      // The attacker names the victim's holdings as its own: owned by another streamer.
      const victimHoldings = holdingsAddress(victim.wallet.publicKey, mint);
      const a = attacker.wallet.publicKey;
      const stolen = await h.deactivateIx(a, streamerPda(a), attacker.ata, victimHoldings);
      expectCode(h.send([stolen], [attacker.wallet]), INVALID_HOLDINGS);

      // A plain token account of the right mint owned by the attacker's wallet is no holdings either.
      const own = await h.deactivateIx(a, streamerPda(a), attacker.ata, attacker.ata);
      expectCode(h.send([own], [attacker.wallet]), INVALID_HOLDINGS);

      expect(h.tokenBalance(victimHoldings)).toBe(1_000n * UNIT);
      expect(h.tokenBalance(attacker.ata)).toBe(0n);
    });

    it('deactivation refuses a stray account of the streamer', async () => {
      const h = await SbfHarness.withTiers([['Tier 1', 1_000n]]);
      const mint = h.mint.publicKey;
      const { wallet, ata } = h.walletWith(mint, 1_000n);
      expectOk(await h.activate(wallet, ata, 'Tier 1'), ACTIVATE);
      // An empty token account the streamer PDA owns, but not its associated one: deactivating with it
      // would end the record and lower the total while the deposit stays in the real holdings.
      const w = wallet.publicKey;
      const stray = keypair();
      h.createTokenAccount(stray, mint, streamerPda(w));
      const ix = await h.deactivateIx(w, streamerPda(w), ata, stray.publicKey);
      expectCode(h.send([ix], [wallet]), INVALID_HOLDINGS);

      expect(h.streamer(w).isActive).toBe(true);
      expect(big(h.config().totalDeposited)).toBe(1_000n * UNIT);
      expect(h.tokenBalance(holdingsAddress(w, mint))).toBe(1_000n * UNIT);
      expectOk(await h.deactivate(wallet, ata), 'deactivate_tier');
      expect(h.tokenBalance(ata)).toBe(1_000n * UNIT);
    });

    it('activation pays only into the signers own holdings', async () => {
      const h = await SbfHarness.withTiers([['Tier 1', 1_000n]]);
      const mint = h.mint.publicKey;
      const victim = h.walletWith(mint, 1_000n);
      const attacker = h.walletWith(mint, 2_000n);
      expectOk(await h.activate(victim.wallet, victim.ata, 'Tier 1'), ACTIVATE);
      const a = attacker.wallet.publicKey;

      // The victim's holdings named as the attacker's: owned by another streamer PDA.
      const victimHoldings = holdingsAddress(victim.wallet.publicKey, mint);
      const intoVictims = await h.activateIx(a, attacker.ata, victimHoldings, 'Tier 1', 1_000n * UNIT);
      expectCode(h.send([intoVictims], [attacker.wallet]), CONSTRAINT_TOKEN_OWNER);

      // A token account the attacker's own streamer PDA owns, but not its associated one.
      const stray = keypair();
      h.createTokenAccount(stray, mint, streamerPda(a));
      const intoStray = await h.activateIx(a, attacker.ata, stray.publicKey, 'Tier 1', 1_000n * UNIT);
      expectCode(h.send([intoStray], [attacker.wallet]), ACCOUNT_NOT_ASSOCIATED_TOKEN_ACCOUNT);

      expect(h.tokenBalance(attacker.ata)).toBe(2_000n * UNIT);
      expect(h.tokenBalance(victimHoldings)).toBe(1_000n * UNIT);
      expect(h.tokenBalance(stray.publicKey)).toBe(0n);
      expect(h.account(streamerPda(a))).toBeNull();
    });

    it('a wallet cannot stake another wallets tokens', async () => {
      const h = await SbfHarness.withTiers([['Tier 1', 1_000n]]);
      const mint = h.mint.publicKey;
      const victim = h.walletWith(mint, 1_000n);
      const attacker = h.walletWith(mint, 0n);

      // The attacker signs and pays the deposit from the victim's token account.
      const a = attacker.wallet.publicKey;
      const fromVictim = await h.activateIx(a, victim.ata, holdingsAddress(a, mint), 'Tier 1', 1_000n * UNIT);
      expectCode(h.send([fromVictim], [attacker.wallet]), CONSTRAINT_TOKEN_OWNER);

      // Or activates the victim without the victim's signature.
      const v = victim.wallet.publicKey;
      const unsigned = await h.activateIx(v, victim.ata, holdingsAddress(v, mint), 'Tier 1', 1_000n * UNIT);
      unsign(unsigned, 0);
      expectCode(h.send([unsigned], []), ACCOUNT_NOT_SIGNER);

      expect(h.tokenBalance(victim.ata)).toBe(1_000n * UNIT);
      expect(h.account(streamerPda(v))).toBeNull();
      expect(h.account(streamerPda(a))).toBeNull();
    });

    it('one wallet cannot touch another wallets record', async () => {
      const h = await SbfHarness.withTiers([['Tier 1', 1_000n]]);
      const mint = h.mint.publicKey;
      const victim = h.walletWith(mint, 1_000n);
      const attacker = h.walletWith(mint, 0n);
      expectOk(await h.activate(victim.wallet, victim.ata, 'Tier 1'), ACTIVATE);
      const v = victim.wallet.publicKey;

      // The attacker signs, naming the victim's streamer record and holdings: the PDA is not theirs.
      const named = await h.deactivateIx(
        attacker.wallet.publicKey,
        streamerPda(v),
        attacker.ata,
        holdingsAddress(v, mint),
      );
      expectCode(h.send([named], [attacker.wallet]), CONSTRAINT_SEEDS);

      // Or names the victim as the wallet, paying out to the attacker's account, in a transaction the
      // attacker alone signs and pays for: the program sees that the victim did not sign.
      const unsigned = await h.deactivateIx(v, streamerPda(v), attacker.ata, holdingsAddress(v, mint));
      unsign(unsigned, 0);
      const outcome = h.send([unsigned], [], attacker.wallet);
      expect(outcome.logs, 'reached the program').toContain(
        `Program ${MINING_PROGRAM_ID.toBase58()} invoke [1]`,
      );
      expectCode(outcome, ACCOUNT_NOT_SIGNER);

      // Or pays the victim's refund into its own token account while the victim signs for something else:
      // the payout account must be the signer's.
      const redirected = await h.deactivateIx(v, streamerPda(v), attacker.ata, holdingsAddress(v, mint));
      expectCode(h.send([redirected], [victim.wallet]), CONSTRAINT_TOKEN_OWNER);

      expect(h.streamer(v).isActive).toBe(true);
      expect(h.tokenBalance(holdingsAddress(v, mint))).toBe(1_000n * UNIT);
      expect(h.tokenBalance(attacker.ata)).toBe(0n);
    });

    it('the payout account must be the signers own', async () => {
      const h = await SbfHarness.withTiers([['Tier 1', 1_000n]]);
      const mint = h.mint.publicKey;
      const { wallet, ata } = h.walletWith(mint, 1_000n);
      const other = h.walletWith(mint, 0n);
      expectOk(await h.activate(wallet, ata, 'Tier 1'), ACTIVATE);
      expectCode(await h.deactivate(wallet, other.ata), CONSTRAINT_TOKEN_OWNER);
      expect(h.tokenBalance(other.ata)).toBe(0n);
      expect(h.streamer(wallet.publicKey).isActive).toBe(true);
    });

    it('a substituted token program is refused', async () => {
      const h = await SbfHarness.withTiers([['Tier 1', 1_000n]]);
      const mint = h.mint.publicKey;
      const { wallet, ata } = h.walletWith(mint, 2_000n);
      const w = wallet.publicKey;
      // Any other executable (here the associated token program) in the token program's place: a program
      // of the attacker's would "transfer" nothing and report success.
      const activation = await h.activateIx(w, ata, holdingsAddress(w, mint), 'Tier 1', 1_000n * UNIT);
      replaceKey(activation, 6, ASSOCIATED_TOKEN_PROGRAM_ID);
      expectCode(h.send([activation], [wallet]), INVALID_PROGRAM_ID);
      expect(h.account(streamerPda(w))).toBeNull();

      expectOk(await h.activate(wallet, ata, 'Tier 1'), ACTIVATE);
      const deactivation = await h.deactivateIx(w, streamerPda(w), ata, holdingsAddress(w, mint));
      replaceKey(deactivation, 6, ASSOCIATED_TOKEN_PROGRAM_ID);
      expectCode(h.send([deactivation], [wallet]), INVALID_PROGRAM_ID);
      expect(h.streamer(w).isActive).toBe(true);
      expect(h.tokenBalance(ata)).toBe(1_000n * UNIT);
      expect(big(h.config().totalDeposited)).toBe(1_000n * UNIT);
    });

    it('tokens of another mint are refused', async () => {
      const h = await SbfHarness.withTiers([['Tier 1', 1_000n]]);
      const fakeMint = keypair();
      h.createMint(fakeMint);
      const { wallet, ata: fakeAta } = h.walletWith(fakeMint.publicKey, 1_000_000n);

      // Paying the deposit in a look-alike token.
      expectCode(await h.activate(wallet, fakeAta, 'Tier 1'), CONSTRAINT_TOKEN_MINT);

      // Naming the look-alike as the mint itself.
      const holdings = getAssociatedTokenAddressSync(fakeMint.publicKey, streamerPda(wallet.publicKey), true);
      const ix = await h.activateIx(wallet.publicKey, fakeAta, holdings, 'Tier 1', 1_000n * UNIT);
      replaceKey(ix, 3, fakeMint.publicKey);
      expectCode(h.send([ix], [wallet]), CONSTRAINT_ADDRESS);

      expect(h.tokenBalance(fakeAta)).toBe(1_000_000n * UNIT);
      expect(h.account(streamerPda(wallet.publicKey))).toBeNull();
    });
  });
}
