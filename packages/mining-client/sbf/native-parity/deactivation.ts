// The native suite's deactivation.rs on the .so: the holdings go back, record and holdings are closed.
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
import { ACCOUNT_NOT_INITIALIZED, ACTIVATE, INVALID_HOLDINGS, NOT_ACTIVE, OVERFLOW } from './support.ts';

export function deactivationParity(): void {
  describe('deactivation', () => {
    it('deactivating returns the holdings and closes the record and holdings', async () => {
      const h = await SbfHarness.withTiers([['Tier 3', 10_000n]]);
      const mint = h.mint.publicKey;
      const { wallet, ata } = h.walletWith(mint, 12_345n);
      const lamportsBefore = h.lamports(wallet.publicKey);
      expectOk(await h.activate(wallet, ata, 'Tier 3'), ACTIVATE);
      expect(h.lamports(wallet.publicKey), "the wallet paid both accounts' rent").toBeLessThan(
        lamportsBefore,
      );
      // Tokens sent straight to the holdings also go back to the wallet.
      const holdings = holdingsAddress(wallet.publicKey, mint);
      h.mintTo(mint, holdings, 5n * UNIT);

      const outcome = expectOk(await h.deactivate(wallet, ata), 'deactivate_tier');

      expect(h.tokenBalance(ata)).toBe(12_350n * UNIT);
      expect(h.account(holdings), 'the holdings are closed').toBeNull();
      expect(h.account(streamerPda(wallet.publicKey)), 'the record is closed').toBeNull();
      // The harness's payer paid the fees, so the wallet is back exactly where it started.
      expect(h.lamports(wallet.publicKey)).toBe(lamportsBefore);
      expect(big(h.config().totalDeposited)).toBe(0n);
      // The transfer and the close are CPIs.
      expect(outcome.innerInstructions).toBeGreaterThanOrEqual(2);
    });

    it('deactivation emits an event for the indexer', async () => {
      const h = await SbfHarness.withTiers([['Tier 2', 5_000n]]);
      const mint = h.mint.publicKey;
      const { wallet, ata } = h.walletWith(mint, 5_000n);
      expectOk(await h.activate(wallet, ata, 'Tier 2'), ACTIVATE);
      const w = wallet.publicKey;
      const ix = await h.deactivateIx(w, streamerPda(w), ata, holdingsAddress(w, mint));
      const { logs } = expectOk(h.send([ix], [wallet]), 'deactivate_tier');

      const found = events(logs, 'tierDeactivated');
      expect(found, logs.join('\n')).toHaveLength(1);
      const [event] = found;
      expect(event?.wallet.toBase58()).toBe(w.toBase58());
      expect(event?.tier).toBe('Tier 2');
      expect(big(event?.amount ?? 0)).toBe(5_000n * UNIT);
      expect(big(event?.timestamp ?? 0)).toBe(h.unixTimestamp());
      expect(events(logs, 'tierActivated')).toEqual([]);
    });

    it('deactivating when not active fails', async () => {
      const h = await SbfHarness.withTiers([['Tier 1', 1_000n]]);
      const { wallet, ata } = h.walletWith(h.mint.publicKey, 1_000n);
      // Never activated: no record.
      expectCode(await h.deactivate(wallet, ata), ACCOUNT_NOT_INITIALIZED);
      expectOk(await h.activate(wallet, ata, 'Tier 1'), ACTIVATE);
      expectOk(await h.deactivate(wallet, ata), 'deactivate_tier');
      // Deactivated: the record is gone again.
      expectCode(await h.deactivate(wallet, ata), ACCOUNT_NOT_INITIALIZED);
      expect(h.tokenBalance(ata)).toBe(1_000n * UNIT);
    });

    it('an inactive record cannot be deactivated', async () => {
      // Records no longer stay inactive (deactivation closes them), but one written by an earlier
      // version of the program still answers NotActive and keeps its holdings.
      const h = await SbfHarness.withTiers([['Tier 1', 1_000n]]);
      const mint = h.mint.publicKey;
      const { wallet, ata } = h.walletWith(mint, 1_000n);
      expectOk(await h.activate(wallet, ata, 'Tier 1'), ACTIVATE);
      const record = h.streamer(wallet.publicKey);
      record.isActive = false;
      await h.forge(streamerPda(wallet.publicKey), 'streamer', record);
      expectCode(await h.deactivate(wallet, ata), NOT_ACTIVE);
      expect(h.tokenBalance(holdingsAddress(wallet.publicKey, mint))).toBe(1_000n * UNIT);
    });

    it('reactivation creates a new record on a new tier', async () => {
      const h = await SbfHarness.withTiers([
        ['Tier 1', 1_000n],
        ['Tier 2', 5_000n],
      ]);
      const mint = h.mint.publicKey;
      const { wallet, ata } = h.walletWith(mint, 6_000n);
      expectOk(await h.activate(wallet, ata, 'Tier 1'), ACTIVATE);
      const first = big(h.streamer(wallet.publicKey).activatedAt);
      expectOk(await h.deactivate(wallet, ata), 'deactivate_tier');

      h.advanceClock(11n * 86_400n);
      expectOk(await h.activate(wallet, ata, 'Tier 2'), ACTIVATE);

      const streamer = h.streamer(wallet.publicKey);
      expect(streamer.tierName).toBe('Tier 2');
      expect(streamer.isActive).toBe(true);
      expect(big(streamer.activatedAt)).toBeGreaterThanOrEqual(first + 11n * 86_400n);
      expect(big(streamer.deposited)).toBe(5_000n * UNIT);
      expect(big(h.config().totalDeposited)).toBe(5_000n * UNIT);
      expect(h.tokenBalance(ata)).toBe(1_000n * UNIT);
      expect(h.tokenBalance(holdingsAddress(wallet.publicKey, mint))).toBe(5_000n * UNIT);

      expectOk(await h.deactivate(wallet, ata), 'deactivate_tier');
      expect(h.tokenBalance(ata)).toBe(6_000n * UNIT);
      expect(big(h.config().totalDeposited)).toBe(0n);
    });

    it('a tier removed while active still returns the deposit', async () => {
      const h = await SbfHarness.withTiers([
        ['Tier 1', 1_000n],
        ['Tier 2', 5_000n],
      ]);
      const mint = h.mint.publicKey;
      const { wallet, ata } = h.walletWith(mint, 1_000n);
      const other = h.walletWith(mint, 5_000n);
      expectOk(await h.activate(wallet, ata, 'Tier 1'), ACTIVATE);
      expectOk(await h.activate(other.wallet, other.ata, 'Tier 2'), ACTIVATE);
      expectOk(await h.removeTier(h.authority, 'Tier 1'), 'remove_tier');

      // The streamer keeps its tier and deposit until it deactivates.
      const streamer = h.streamer(wallet.publicKey);
      expect([streamer.tierName, streamer.isActive]).toEqual(['Tier 1', true]);
      expect(big(streamer.deposited)).toBe(1_000n * UNIT);
      expect(big(h.config().totalDeposited)).toBe(6_000n * UNIT);

      expectOk(await h.deactivate(wallet, ata), 'deactivate_tier');
      expect(h.tokenBalance(ata)).toBe(1_000n * UNIT);
      expect(big(h.config().totalDeposited)).toBe(5_000n * UNIT);
      expect(h.account(streamerPda(wallet.publicKey))).toBeNull();
    });

    it('a tier repriced while active keeps the deposit paid', async () => {
      const h = await SbfHarness.withTiers([['Tier 1', 1_000n]]);
      const mint = h.mint.publicKey;
      const { wallet, ata } = h.walletWith(mint, 1_000n);
      expectOk(await h.activate(wallet, ata, 'Tier 1'), ACTIVATE);
      const activatedAt = big(h.streamer(wallet.publicKey).activatedAt);
      expectOk(await h.updateTier(h.authority, 'Tier 1', 2_000n * UNIT), 'update_tier');

      // Nothing changes for the active streamer: same tier, same clock, same deposit.
      const streamer = h.streamer(wallet.publicKey);
      expect([streamer.tierName, big(streamer.activatedAt)]).toEqual(['Tier 1', activatedAt]);
      expect(big(streamer.deposited)).toBe(1_000n * UNIT);
      expect(big(h.config().totalDeposited)).toBe(1_000n * UNIT);

      // A new activation pays the new price.
      const newcomer = h.walletWith(mint, 2_000n);
      expectOk(await h.activate(newcomer.wallet, newcomer.ata, 'Tier 1'), ACTIVATE);
      expect(big(h.streamer(newcomer.wallet.publicKey).deposited)).toBe(2_000n * UNIT);
      expect(big(h.config().totalDeposited)).toBe(3_000n * UNIT);

      // The first streamer gets back what it paid, not the new price.
      expectOk(await h.deactivate(wallet, ata), 'deactivate_tier');
      expect(h.tokenBalance(ata)).toBe(1_000n * UNIT);
      expect(big(h.config().totalDeposited)).toBe(2_000n * UNIT);
    });

    it('deactivation checks the total for underflow', async () => {
      const h = await SbfHarness.withTiers([['Tier 1', 1_000n]]);
      const { wallet, ata } = h.walletWith(h.mint.publicKey, 1_000n);
      expectOk(await h.activate(wallet, ata, 'Tier 1'), ACTIVATE);
      // A running total below this streamer's deposit (a state no transaction can make).
      const config = h.config();
      config.totalDeposited = new BN((999n * UNIT).toString());
      await h.forge(configPda(), 'config', config);

      expectCode(await h.deactivate(wallet, ata), OVERFLOW);
      expect(h.tokenBalance(ata)).toBe(0n);
      expect(h.streamer(wallet.publicKey).isActive).toBe(true);
      expect(big(h.config().totalDeposited)).toBe(999n * UNIT);
    });

    it('holdings short of the deposit are refused', async () => {
      const h = await SbfHarness.withTiers([['Tier 1', 1_000n]]);
      const mint = h.mint.publicKey;
      const { wallet, ata } = h.walletWith(mint, 1_000n);
      expectOk(await h.activate(wallet, ata, 'Tier 1'), ACTIVATE);
      // A record claiming more than its holdings hold (no transaction can make one).
      const record = h.streamer(wallet.publicKey);
      record.deposited = new BN((1_001n * UNIT).toString());
      await h.forge(streamerPda(wallet.publicKey), 'streamer', record);

      expectCode(await h.deactivate(wallet, ata), INVALID_HOLDINGS);
      expect(h.streamer(wallet.publicKey).isActive).toBe(true);
      expect(h.tokenBalance(holdingsAddress(wallet.publicKey, mint))).toBe(1_000n * UNIT);
    });
  });
}
