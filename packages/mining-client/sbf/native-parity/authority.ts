// The native suite's authority.rs on the .so: the tier table and the authority's two-step handover.
import { describe, expect, it } from 'vitest';
import BN from 'bn.js';
import { SbfHarness, configPda, expectCode, expectOk, keypair, streamerPda, UNIT } from '../harness.ts';
import {
  ACCOUNT_OWNED_BY_WRONG_PROGRAM,
  ACTIVATE,
  INVALID_TIER,
  MAX_TIERS,
  MAX_TIERS_REACHED,
  UNAUTHORIZED,
  tiers,
} from './support.ts';

export function authorityParity(): void {
  describe('the authority', () => {
    it('authority adds updates and removes tiers', async () => {
      const h = await SbfHarness.withTiers([
        ['Tier 1', 1_000n],
        ['Tier 2', 5_000n],
      ]);
      expectOk(await h.updateTier(h.authority, 'Tier 2', 7_500n * UNIT), 'update_tier');
      expectOk(await h.removeTier(h.authority, 'Tier 1'), 'remove_tier');
      expectOk(await h.addTier(h.authority, 'Tier 3', 10_000n * UNIT), 'add_tier');
      expect(tiers(h)).toEqual([
        ['Tier 2', 7_500n * UNIT],
        ['Tier 3', 10_000n * UNIT],
      ]);
    });

    it('only the authority changes tiers', async () => {
      const h = await SbfHarness.withTiers([['Tier 1', 1_000n]]);
      const intruder = keypair();
      h.airdrop(intruder.publicKey, 1_000_000_000n);
      expectCode(await h.addTier(intruder, 'Cheap Tier', 1n), UNAUTHORIZED);
      expectCode(await h.updateTier(intruder, 'Tier 1', 1n), UNAUTHORIZED);
      expectCode(await h.removeTier(intruder, 'Tier 1'), UNAUTHORIZED);
      expect(tiers(h)).toEqual([['Tier 1', 1_000n * UNIT]]);
    });

    it('tiers are bounded', async () => {
      const h = await SbfHarness.withTiers([]);
      for (let i = 1; i <= MAX_TIERS; i++) {
        expectOk(await h.addTier(h.authority, `Tier ${i}`, BigInt(i) * UNIT), 'add_tier');
      }
      expectCode(await h.addTier(h.authority, 'One Too Many', 1n), MAX_TIERS_REACHED);
      expect(h.config().tiers).toHaveLength(MAX_TIERS);
    });

    it('tier names are unique non empty and must exist', async () => {
      const h = await SbfHarness.withTiers([['Tier 1', 1_000n]]);
      expectCode(await h.addTier(h.authority, 'Tier 1', 5n), INVALID_TIER);
      expectCode(await h.addTier(h.authority, '', 5n), INVALID_TIER);
      expectCode(await h.addTier(h.authority, 'x'.repeat(33), 5n), INVALID_TIER);
      expectCode(await h.updateTier(h.authority, 'Tier 9', 5n), INVALID_TIER);
      expectCode(await h.removeTier(h.authority, 'Tier 9'), INVALID_TIER);
      expect(h.config().tiers).toHaveLength(1);
    });

    it('a tier cannot be free', async () => {
      const h = await SbfHarness.withTiers([['Tier 1', 1_000n]]);
      expectCode(await h.addTier(h.authority, 'Free Tier', 0n), INVALID_TIER);
      expectCode(await h.updateTier(h.authority, 'Tier 1', 0n), INVALID_TIER);
      expect(tiers(h)).toEqual([['Tier 1', 1_000n * UNIT]]);
    });

    it('a 32 byte tier name works end to end', async () => {
      const name = 'T'.repeat(32);
      const h = await SbfHarness.withTiers([[name, 1_000n]]);
      const { wallet, ata } = h.walletWith(h.mint.publicKey, 1_000n);
      expectOk(await h.activate(wallet, ata, name), ACTIVATE);
      expect(h.streamer(wallet.publicKey).tierName).toBe(name);
      expectOk(await h.deactivate(wallet, ata), 'deactivate_tier');
      expect(h.tokenBalance(ata)).toBe(1_000n * UNIT);
    });

    it('the authority is handed over in two steps', async () => {
      const h = await SbfHarness.withTiers([['Tier 1', 1_000n]]);
      const old = h.authority;
      const successor = keypair();
      const intruder = keypair();
      h.airdrop(successor.publicKey, 1_000_000_000n);
      h.airdrop(intruder.publicKey, 1_000_000_000n);

      // Nothing to accept yet; only the authority proposes.
      expectCode(await h.acceptAuthority(successor), UNAUTHORIZED);
      expectCode(await h.proposeAuthority(intruder, intruder.publicKey), UNAUTHORIZED);

      expectOk(await h.proposeAuthority(old, successor.publicKey), 'propose_authority');
      expect(h.config().pendingAuthority?.toBase58()).toBe(successor.publicKey.toBase58());
      // Proposing hands nothing over: the old key still rules, and only the proposed key can accept.
      expect(h.config().authority.toBase58()).toBe(old.publicKey.toBase58());
      expectCode(await h.acceptAuthority(intruder), UNAUTHORIZED);
      expectOk(await h.updateTier(old, 'Tier 1', 2_000n * UNIT), 'update_tier');

      expectOk(await h.acceptAuthority(successor), 'accept_authority');
      const config = h.config();
      expect(config.authority.toBase58()).toBe(successor.publicKey.toBase58());
      expect(config.pendingAuthority).toBeNull();
      expectCode(await h.updateTier(old, 'Tier 1', 3_000n * UNIT), UNAUTHORIZED);
      expectCode(await h.proposeAuthority(old, old.publicKey), UNAUTHORIZED);
      expectOk(await h.addTier(successor, 'Tier 2', 5_000n * UNIT), 'add_tier');
      // Accepting twice is refused: the proposal was used up.
      expectCode(await h.acceptAuthority(successor), UNAUTHORIZED);
      expect(tiers(h)).toEqual([
        ['Tier 1', 2_000n * UNIT],
        ['Tier 2', 5_000n * UNIT],
      ]);
    });

    it('a proposal can be withdrawn', async () => {
      const h = await SbfHarness.withTiers([]);
      const successor = keypair();
      h.airdrop(successor.publicKey, 1_000_000_000n);
      expectOk(await h.proposeAuthority(h.authority, successor.publicKey), 'propose_authority');
      expectOk(await h.proposeAuthority(h.authority, null), 'propose_authority');
      expectCode(await h.acceptAuthority(successor), UNAUTHORIZED);
      const config = h.config();
      expect(config.authority.toBase58()).toBe(h.authority.publicKey.toBase58());
      expect(config.pendingAuthority).toBeNull();
    });

    it('a config owned by another program is refused', async () => {
      const h = await SbfHarness.withTiers([['Tier 1', 1_000n]]);
      const { wallet, ata } = h.walletWith(h.mint.publicKey, 1_000n);
      // A copy of the config with a nearly free tier and the attacker as authority, owned by the
      // attacker's program, at the config's own address.
      const attacker = keypair();
      h.airdrop(attacker.publicKey, 1_000_000_000n);
      const fake = h.config();
      fake.authority = attacker.publicKey;
      fake.tiers = [{ name: 'Tier 1', deposit: new BN(1) }];
      await h.forge(configPda(), 'config', fake, keypair().publicKey);

      expectCode(await h.activateExpecting(wallet, ata, 'Tier 1', 1n), ACCOUNT_OWNED_BY_WRONG_PROGRAM);
      expectCode(await h.addTier(attacker, 'Mine', 1n), ACCOUNT_OWNED_BY_WRONG_PROGRAM);
      expect(h.tokenBalance(ata)).toBe(1_000n * UNIT);
      expect(h.account(streamerPda(wallet.publicKey))).toBeNull();
    });
  });
}
