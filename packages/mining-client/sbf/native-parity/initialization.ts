// The native suite's initialization.rs on the .so: the config is made once, by the upgrade authority.
import { describe, expect, it } from 'vitest';
import {
  BPF_LOADER_UPGRADEABLE_ID,
  big,
  SbfHarness,
  configPda,
  DECIMALS,
  expectCode,
  expectOk,
  keypair,
  programDataHeader,
} from '../harness.ts';
import {
  ACCOUNT_ALREADY_IN_USE,
  ACCOUNT_NOT_INITIALIZED,
  CONSTRAINT_MINT_FREEZE_AUTHORITY,
  CONSTRAINT_SEEDS,
  UNAUTHORIZED,
  replaceKey,
} from './support.ts';

export function initializationParity(): void {
  describe('initialisation', () => {
    it('the upgrade authority initializes with its mint', async () => {
      const h = SbfHarness.start();
      expectOk(await h.initialize(), 'initialize');
      const config = h.config();
      expect(config.authority.toBase58()).toBe(h.authority.publicKey.toBase58());
      expect(config.pendingAuthority).toBeNull();
      expect(config.tokenMint.toBase58()).toBe(h.mint.publicKey.toBase58());
      expect(config.tokenDecimals).toBe(DECIMALS);
      expect(big(config.totalDeposited)).toBe(0n);
      expect(config.tiers).toEqual([]);
    });

    it('initialize runs once', async () => {
      const h = SbfHarness.start();
      expectOk(await h.initialize(), 'initialize');
      // The authority trying again finds the config account already in use.
      expectCode(await h.initialize(), ACCOUNT_ALREADY_IN_USE);
      expect(h.config().authority.toBase58()).toBe(h.authority.publicKey.toBase58());
    });

    it('nobody but the upgrade authority can initialize first', async () => {
      // Deploy and initialise are separate transactions: a watcher tries to take the config in between.
      const h = SbfHarness.start();
      const intruder = keypair();
      h.airdrop(intruder.publicKey, 1_000_000_000n);
      const ix = await h.initializeIx(intruder.publicKey, h.mint.publicKey);
      expectCode(h.send([ix], [intruder]), UNAUTHORIZED);
      expect(h.account(configPda())).toBeNull();

      // Its own program's ProgramData (the loader's account, the intruder its upgrade authority) named
      // instead of this program's: not at the address derived from this program's id.
      const lookAlike = keypair().publicKey;
      h.setAccount(lookAlike, programDataHeader(intruder.publicKey), BPF_LOADER_UPGRADEABLE_ID);
      const forged = await h.initializeIx(intruder.publicKey, h.mint.publicKey);
      replaceKey(forged, 1, lookAlike);
      expectCode(h.send([forged], [intruder]), CONSTRAINT_SEEDS);
      expect(h.account(configPda())).toBeNull();

      expectOk(await h.initialize(), 'initialize');
      expect(h.config().authority.toBase58()).toBe(h.authority.publicKey.toBase58());
    });

    it('without an upgrade authority nobody can initialize', async () => {
      // An immutable deployment (upgrade authority revoked before initialising).
      const immutable = SbfHarness.start(keypair(), { upgradeAuthority: null });
      expectCode(await immutable.initialize(), UNAUTHORIZED);
      expect(immutable.account(configPda())).toBeNull();
      // No ProgramData at all (not an upgradeable deployment: BPF loader 2).
      const plain = SbfHarness.start(keypair(), 'not-upgradeable');
      expectCode(await plain.initialize(), ACCOUNT_NOT_INITIALIZED);
      expect(plain.account(configPda())).toBeNull();
    });

    it('a mint with a freeze authority is refused', async () => {
      const h = SbfHarness.start();
      const freezable = keypair();
      h.createMint(freezable, h.payer.publicKey);
      const ix = await h.initializeIx(h.authority.publicKey, freezable.publicKey);
      expectCode(h.send([ix], [h.authority]), CONSTRAINT_MINT_FREEZE_AUTHORITY);
      expect(h.account(configPda())).toBeNull();
    });
  });
}
