// The native suite's activation.rs on the .so: the deposit moves from the wallet into the holdings.
import { describe, expect, it } from 'vitest';
import BN from 'bn.js';
import {
  big,
  SbfHarness,
  configPda,
  events,
  expectCode,
  expectOk,
  holdingsAddress,
  streamerPda,
  UNIT,
} from '../harness.ts';
import {
  ACTIVATE,
  ACTIVATE_REFUSED,
  ALREADY_ACTIVE,
  DEPOSIT_CHANGED,
  INVALID_TIER,
  OVERFLOW,
  TOKEN_INSUFFICIENT_FUNDS,
} from './support.ts';

export function activationParity(): void {
  describe('activation', () => {
    it('activating moves exactly the deposit into new holdings', async () => {
      const h = await SbfHarness.withTiers([
        ['Tier 1', 1_000n],
        ['Tier 2', 5_000n],
      ]);
      const mint = h.mint.publicKey;
      const { wallet, ata } = h.walletWith(mint, 6_000n);
      const holdings = holdingsAddress(wallet.publicKey, mint);
      expect(h.account(holdings), 'no holdings before the first activation').toBeNull();

      const outcome = expectOk(await h.activate(wallet, ata, 'Tier 2'), ACTIVATE);

      expect(h.tokenBalance(ata)).toBe(1_000n * UNIT);
      expect(h.tokenBalance(holdings)).toBe(5_000n * UNIT);
      const holdingsState = h.tokenState(holdings);
      expect(holdingsState.owner.toBase58()).toBe(streamerPda(wallet.publicKey).toBase58());
      expect(holdingsState.mint.toBase58()).toBe(mint.toBase58());

      const streamer = h.streamer(wallet.publicKey);
      expect(streamer.wallet.toBase58()).toBe(wallet.publicKey.toBase58());
      expect(streamer.tierName).toBe('Tier 2');
      expect(streamer.isActive).toBe(true);
      expect(big(streamer.activatedAt)).toBe(h.unixTimestamp());
      expect(big(streamer.deposited)).toBe(5_000n * UNIT);
      expect(big(h.config().totalDeposited)).toBe(5_000n * UNIT);
      // The SBF runtime's view: the record's and the holdings' creation and the transfer are CPIs.
      expect(outcome.innerInstructions).toBeGreaterThanOrEqual(3);
    });

    it('activation emits an event for the indexer', async () => {
      const h = await SbfHarness.withTiers([['Tier 1', 1_000n]]);
      const mint = h.mint.publicKey;
      const { wallet, ata } = h.walletWith(mint, 1_000n);
      const holdings = holdingsAddress(wallet.publicKey, mint);
      const ix = await h.activateIx(wallet.publicKey, ata, holdings, 'Tier 1', 1_000n * UNIT);
      const { logs } = expectOk(h.send([ix], [wallet]), ACTIVATE);

      const found = events(logs, 'tierActivated');
      expect(found, logs.join('\n')).toHaveLength(1);
      const [event] = found;
      expect(event?.wallet.toBase58()).toBe(wallet.publicKey.toBase58());
      expect(event?.tier).toBe('Tier 1');
      expect(big(event?.amount ?? 0)).toBe(1_000n * UNIT);
      expect(big(event?.timestamp ?? 0)).toBe(h.unixTimestamp());
    });

    it('activation pays only the deposit the wallet agreed to', async () => {
      const h = await SbfHarness.withTiers([['Tier 1', 1_000n]]);
      const { wallet, ata } = h.walletWith(h.mint.publicKey, 5_000n);
      // The wallet signs for 1,000; the authority raises the price before the transaction lands.
      expectOk(await h.updateTier(h.authority, 'Tier 1', 2_000n * UNIT), 'update_tier');
      expectCode(await h.activateExpecting(wallet, ata, 'Tier 1', 1_000n * UNIT), DEPOSIT_CHANGED);
      // A lower price than agreed is refused too: the amount must be the one the user saw.
      expectCode(await h.activateExpecting(wallet, ata, 'Tier 1', 3_000n * UNIT), DEPOSIT_CHANGED);
      expect(h.tokenBalance(ata)).toBe(5_000n * UNIT);
      expect(h.account(streamerPda(wallet.publicKey))).toBeNull();
      expect(big(h.config().totalDeposited)).toBe(0n);

      expectOk(await h.activateExpecting(wallet, ata, 'Tier 1', 2_000n * UNIT), ACTIVATE);
      expect(h.tokenBalance(ata)).toBe(3_000n * UNIT);
    });

    it('activating an unknown tier fails and moves nothing', async () => {
      const h = await SbfHarness.withTiers([['Tier 1', 1_000n]]);
      const { wallet, ata } = h.walletWith(h.mint.publicKey, 2_000n);
      expectCode(await h.activateExpecting(wallet, ata, 'Tier 42', 1_000n * UNIT), INVALID_TIER);
      expect(h.tokenBalance(ata)).toBe(2_000n * UNIT);
      expect(h.account(streamerPda(wallet.publicKey))).toBeNull();
    });

    it('activating a removed tier fails', async () => {
      const h = await SbfHarness.withTiers([
        ['Tier 1', 1_000n],
        ['Tier 2', 5_000n],
      ]);
      const { wallet, ata } = h.walletWith(h.mint.publicKey, 6_000n);
      expectOk(await h.removeTier(h.authority, 'Tier 2'), 'remove_tier');
      expectCode(await h.activateExpecting(wallet, ata, 'Tier 2', 5_000n * UNIT), INVALID_TIER);
      expect(h.tokenBalance(ata)).toBe(6_000n * UNIT);
      expect(h.account(streamerPda(wallet.publicKey))).toBeNull();
      expect(big(h.config().totalDeposited)).toBe(0n);
    });

    it('an active streamer cannot activate again', async () => {
      const h = await SbfHarness.withTiers([
        ['Tier 1', 1_000n],
        ['Tier 2', 5_000n],
      ]);
      const { wallet, ata } = h.walletWith(h.mint.publicKey, 10_000n);
      expectOk(await h.activate(wallet, ata, 'Tier 1'), ACTIVATE);
      expectCode(await h.activate(wallet, ata, 'Tier 2'), ALREADY_ACTIVE, ACTIVATE_REFUSED);
      expect(h.tokenBalance(ata)).toBe(9_000n * UNIT);
      expect(h.streamer(wallet.publicKey).tierName).toBe('Tier 1');
      expect(big(h.config().totalDeposited)).toBe(1_000n * UNIT);
    });

    it('activation needs the whole deposit', async () => {
      const h = await SbfHarness.withTiers([['Tier 2', 5_000n]]);
      const { wallet, ata } = h.walletWith(h.mint.publicKey, 4_999n);
      // The token program refuses the transfer (insufficient funds); nothing changes.
      expectCode(await h.activate(wallet, ata, 'Tier 2'), TOKEN_INSUFFICIENT_FUNDS);
      expect(h.tokenBalance(ata)).toBe(4_999n * UNIT);
      expect(h.account(streamerPda(wallet.publicKey))).toBeNull();
    });

    it('total deposits are checked for overflow', async () => {
      const h = await SbfHarness.withTiers([['Tier 1', 1_000n]]);
      // A config whose running total is already near u64::MAX: one more deposit cannot be counted.
      const config = h.config();
      config.totalDeposited = new BN((2n ** 64n - 1n - 10n).toString());
      await h.forge(configPda(), 'config', config);

      const { wallet, ata } = h.walletWith(h.mint.publicKey, 1_000n);
      expectCode(await h.activate(wallet, ata, 'Tier 1'), OVERFLOW);
      expect(h.tokenBalance(ata)).toBe(1_000n * UNIT);
      expect(h.account(streamerPda(wallet.publicKey))).toBeNull();
    });

    it('a pre funded record and holdings do not block activation', async () => {
      // Anyone can send lamports to the addresses of a wallet's future record and holdings.
      const h = await SbfHarness.withTiers([['Tier 1', 1_000n]]);
      const mint = h.mint.publicKey;
      const { wallet, ata } = h.walletWith(mint, 1_000n);
      const record = streamerPda(wallet.publicKey);
      const holdings = holdingsAddress(wallet.publicKey, mint);
      h.airdrop(record, 1_000_000n);
      h.airdrop(holdings, 2_000_000n);
      const before = h.lamports(wallet.publicKey);

      expectOk(await h.activate(wallet, ata, 'Tier 1'), ACTIVATE);
      expect(big(h.streamer(wallet.publicKey).deposited)).toBe(1_000n * UNIT);
      expect(h.tokenBalance(holdings)).toBe(1_000n * UNIT);

      // Closing returns every lamport of both accounts, the gifts included, to the wallet.
      expectOk(await h.deactivate(wallet, ata), 'deactivate_tier');
      expect(h.lamports(wallet.publicKey)).toBe(before + 3_000_000n);
      expect(h.account(record)).toBeNull();
      expect(h.account(holdings)).toBeNull();
    });
  });
}
