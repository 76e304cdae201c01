// The mining program's SBF build (target/deploy/mining.so, from `./run sbf`) run by LiteSVM: the SBF
// loader, the 4 KB stack frame and 32 KB heap, real compute units and CPIs as inner instructions, with
// LiteSVM's SPL Token and Associated Token programs. Run by `pnpm test:sbf` (scripts/sbf/test.mjs), which
// builds the .so first; each instruction's compute units are printed and checked against a budget.
//
// Every test of the native suite (programs/mining-tests/tests/mining/) has a twin here, titled with the
// native test's name (underscores as spaces), asserting the same error codes, balances and account data
// on the .so; the last test checks that no native test is left without one. The tests after the twins are
// the SBF run's own (the client's transaction, the full tier table, compute budgets).
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  ASSOCIATED_TOKEN_PROGRAM_ID,
  createAssociatedTokenAccountIdempotentInstruction,
  getAssociatedTokenAddressSync,
} from '@solana/spl-token';
import type { PublicKey, TransactionInstruction } from '@solana/web3.js';
import { afterAll, describe, expect, it } from 'vitest';
import BN from 'bn.js';
import {
  BPF_LOADER_UPGRADEABLE_ID,
  big,
  Chain,
  configPda,
  DECIMALS,
  events,
  expectCode,
  expectOk,
  holdingsAddress,
  keypair,
  MINING_PROGRAM_ID,
  meter,
  NATIVE_TESTS,
  programDataHeader,
  SO,
  streamerPda,
  UNIT,
} from './harness.ts';

const UNAUTHORIZED = 6000;
const ALREADY_ACTIVE = 6001;
const NOT_ACTIVE = 6002;
const INVALID_TIER = 6003;
const MAX_TIERS_REACHED = 6004;
const INVALID_HOLDINGS = 6005;
const OVERFLOW = 6006;
const DEPOSIT_CHANGED = 6007;
// Anchor's own constraint and account errors.
const CONSTRAINT_SEEDS = 2006;
const CONSTRAINT_ADDRESS = 2012;
const CONSTRAINT_TOKEN_MINT = 2014;
const CONSTRAINT_TOKEN_OWNER = 2015;
const CONSTRAINT_MINT_FREEZE_AUTHORITY = 2017;
const ACCOUNT_OWNED_BY_WRONG_PROGRAM = 3007;
const INVALID_PROGRAM_ID = 3008;
const ACCOUNT_NOT_SIGNER = 3010;
const ACCOUNT_NOT_INITIALIZED = 3012;
const ACCOUNT_NOT_ASSOCIATED_TOKEN_ACCOUNT = 3014;
// The system program's "account already in use"; SPL Token's "insufficient funds".
const ACCOUNT_ALREADY_IN_USE = 0;
const TOKEN_INSUFFICIENT_FUNDS = 1;
const MAX_TIERS = 16;

// Compute units per instruction (the mining program's own, its CPIs included), with the budget the
// highest seen must stay within.
const ACTIVATE = 'activate_tier (creates record and holdings)';
const ACTIVATE_CLIENT = 'activate_tier (holdings created before it, as the client does)';
const ACTIVATE_REFUSED = 'activate_tier refused (already active)';
const BUDGETS: Record<string, number> = {
  initialize: 20_000,
  add_tier: 15_000,
  update_tier: 15_000,
  remove_tier: 15_000,
  propose_authority: 15_000,
  accept_authority: 15_000,
  [ACTIVATE]: 60_000,
  [ACTIVATE_CLIENT]: 60_000,
  [ACTIVATE_REFUSED]: 60_000,
  deactivate_tier: 40_000,
};

const haveSo = existsSync(SO);

describe.skipIf(!haveSo)('the mining program as SBF (LiteSVM)', () => {
  afterAll(() => {
    const lines = Object.entries(BUDGETS).map(([name, budget]) => {
      const seen = meter.get(name);
      const units = seen ? (seen.min === seen.max ? `${seen.max}` : `${seen.min}-${seen.max}`) : '-';
      return `${name.padEnd(64)} ${units.padStart(13)} CU  (budget ${budget})`;
    });
    const table = `${lines.join('\n')}\n`;
    mkdirSync(dirname(SO), { recursive: true });
    writeFileSync(join(dirname(SO), 'mining-compute-units.txt'), table);
    console.log(`Compute units of ${SO}:\n${table}`);
  });

  // ---- initialisation -------------------------------------------------------------------------

  describe('initialisation', () => {
    it('the upgrade authority initializes with its mint', async () => {
      const h = Chain.start();
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
      const h = Chain.start();
      expectOk(await h.initialize(), 'initialize');
      // The authority trying again finds the config account already in use.
      expectCode(await h.initialize(), ACCOUNT_ALREADY_IN_USE);
      expect(h.config().authority.toBase58()).toBe(h.authority.publicKey.toBase58());
    });

    it('nobody but the upgrade authority can initialize first', async () => {
      // Deploy and initialise are separate transactions: a watcher tries to take the config in between.
      const h = Chain.start();
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
      const immutable = Chain.start(keypair(), { upgradeAuthority: null });
      expectCode(await immutable.initialize(), UNAUTHORIZED);
      expect(immutable.account(configPda())).toBeNull();
      // No ProgramData at all (not an upgradeable deployment: BPF loader 2).
      const plain = Chain.start(keypair(), 'not-upgradeable');
      expectCode(await plain.initialize(), ACCOUNT_NOT_INITIALIZED);
      expect(plain.account(configPda())).toBeNull();
    });

    it('a mint with a freeze authority is refused', async () => {
      const h = Chain.start();
      const freezable = keypair();
      h.createMint(freezable, h.payer.publicKey);
      const ix = await h.initializeIx(h.authority.publicKey, freezable.publicKey);
      expectCode(h.send([ix], [h.authority]), CONSTRAINT_MINT_FREEZE_AUTHORITY);
      expect(h.account(configPda())).toBeNull();
    });
  });

  // ---- the authority --------------------------------------------------------------------------

  describe('the authority', () => {
    it('authority adds updates and removes tiers', async () => {
      const h = await Chain.withTiers([
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
      const h = await Chain.withTiers([['Tier 1', 1_000n]]);
      const intruder = keypair();
      h.airdrop(intruder.publicKey, 1_000_000_000n);
      expectCode(await h.addTier(intruder, 'Cheap Tier', 1n), UNAUTHORIZED);
      expectCode(await h.updateTier(intruder, 'Tier 1', 1n), UNAUTHORIZED);
      expectCode(await h.removeTier(intruder, 'Tier 1'), UNAUTHORIZED);
      expect(tiers(h)).toEqual([['Tier 1', 1_000n * UNIT]]);
    });

    it('tiers are bounded', async () => {
      const h = await Chain.withTiers([]);
      for (let i = 1; i <= MAX_TIERS; i++) {
        expectOk(await h.addTier(h.authority, `Tier ${i}`, BigInt(i) * UNIT), 'add_tier');
      }
      expectCode(await h.addTier(h.authority, 'One Too Many', 1n), MAX_TIERS_REACHED);
      expect(h.config().tiers).toHaveLength(MAX_TIERS);
    });

    it('tier names are unique non empty and must exist', async () => {
      const h = await Chain.withTiers([['Tier 1', 1_000n]]);
      expectCode(await h.addTier(h.authority, 'Tier 1', 5n), INVALID_TIER);
      expectCode(await h.addTier(h.authority, '', 5n), INVALID_TIER);
      expectCode(await h.addTier(h.authority, 'x'.repeat(33), 5n), INVALID_TIER);
      expectCode(await h.updateTier(h.authority, 'Tier 9', 5n), INVALID_TIER);
      expectCode(await h.removeTier(h.authority, 'Tier 9'), INVALID_TIER);
      expect(h.config().tiers).toHaveLength(1);
    });

    it('a tier cannot be free', async () => {
      const h = await Chain.withTiers([['Tier 1', 1_000n]]);
      expectCode(await h.addTier(h.authority, 'Free Tier', 0n), INVALID_TIER);
      expectCode(await h.updateTier(h.authority, 'Tier 1', 0n), INVALID_TIER);
      expect(tiers(h)).toEqual([['Tier 1', 1_000n * UNIT]]);
    });

    it('a 32 byte tier name works end to end', async () => {
      const name = 'T'.repeat(32);
      const h = await Chain.withTiers([[name, 1_000n]]);
      const { wallet, ata } = h.walletWith(h.mint.publicKey, 1_000n);
      expectOk(await h.activate(wallet, ata, name), ACTIVATE);
      expect(h.streamer(wallet.publicKey).tierName).toBe(name);
      expectOk(await h.deactivate(wallet, ata), 'deactivate_tier');
      expect(h.tokenBalance(ata)).toBe(1_000n * UNIT);
    });

    it('the authority is handed over in two steps', async () => {
      const h = await Chain.withTiers([['Tier 1', 1_000n]]);
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
      const h = await Chain.withTiers([]);
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
      const h = await Chain.withTiers([['Tier 1', 1_000n]]);
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

  // ---- activation ----------------------------------------------------------------------------

  describe('activation', () => {
    it('activating moves exactly the deposit into new holdings', async () => {
      const h = await Chain.withTiers([
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
      const h = await Chain.withTiers([['Tier 1', 1_000n]]);
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
      const h = await Chain.withTiers([['Tier 1', 1_000n]]);
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
      const h = await Chain.withTiers([['Tier 1', 1_000n]]);
      const { wallet, ata } = h.walletWith(h.mint.publicKey, 2_000n);
      expectCode(await h.activateExpecting(wallet, ata, 'Tier 42', 1_000n * UNIT), INVALID_TIER);
      expect(h.tokenBalance(ata)).toBe(2_000n * UNIT);
      expect(h.account(streamerPda(wallet.publicKey))).toBeNull();
    });

    it('activating a removed tier fails', async () => {
      const h = await Chain.withTiers([
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
      const h = await Chain.withTiers([
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
      const h = await Chain.withTiers([['Tier 2', 5_000n]]);
      const { wallet, ata } = h.walletWith(h.mint.publicKey, 4_999n);
      // The token program refuses the transfer (insufficient funds); nothing changes.
      expectCode(await h.activate(wallet, ata, 'Tier 2'), TOKEN_INSUFFICIENT_FUNDS);
      expect(h.tokenBalance(ata)).toBe(4_999n * UNIT);
      expect(h.account(streamerPda(wallet.publicKey))).toBeNull();
    });

    it('total deposits are checked for overflow', async () => {
      const h = await Chain.withTiers([['Tier 1', 1_000n]]);
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
      const h = await Chain.withTiers([['Tier 1', 1_000n]]);
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

  // ---- deactivation --------------------------------------------------------------------------

  describe('deactivation', () => {
    it('deactivating returns the holdings and closes the record and holdings', async () => {
      const h = await Chain.withTiers([['Tier 3', 10_000n]]);
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
      const h = await Chain.withTiers([['Tier 2', 5_000n]]);
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
      const h = await Chain.withTiers([['Tier 1', 1_000n]]);
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
      const h = await Chain.withTiers([['Tier 1', 1_000n]]);
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
      const h = await Chain.withTiers([
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
      const h = await Chain.withTiers([
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
      const h = await Chain.withTiers([['Tier 1', 1_000n]]);
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
      const h = await Chain.withTiers([['Tier 1', 1_000n]]);
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
      const h = await Chain.withTiers([['Tier 1', 1_000n]]);
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

  // ---- attacks -------------------------------------------------------------------------------

  describe('attacks', () => {
    it('holdings not owned by the streamer are rejected', async () => {
      const h = await Chain.withTiers([['Tier 1', 1_000n]]);
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
      const h = await Chain.withTiers([['Tier 1', 1_000n]]);
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
      const h = await Chain.withTiers([['Tier 1', 1_000n]]);
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
      const h = await Chain.withTiers([['Tier 1', 1_000n]]);
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
      const h = await Chain.withTiers([['Tier 1', 1_000n]]);
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
      const h = await Chain.withTiers([['Tier 1', 1_000n]]);
      const mint = h.mint.publicKey;
      const { wallet, ata } = h.walletWith(mint, 1_000n);
      const other = h.walletWith(mint, 0n);
      expectOk(await h.activate(wallet, ata, 'Tier 1'), ACTIVATE);
      expectCode(await h.deactivate(wallet, other.ata), CONSTRAINT_TOKEN_OWNER);
      expect(h.tokenBalance(other.ata)).toBe(0n);
      expect(h.streamer(wallet.publicKey).isActive).toBe(true);
    });

    it('a substituted token program is refused', async () => {
      const h = await Chain.withTiers([['Tier 1', 1_000n]]);
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
      const h = await Chain.withTiers([['Tier 1', 1_000n]]);
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

  // ---- the SBF run's own ---------------------------------------------------------------------

  describe('on the SBF runtime', () => {
    it("the client's activation (holdings created idempotently first) and deactivation", async () => {
      const h = await Chain.withTiers([['Tier 2', 5_000n]]);
      const mint = h.mint.publicKey;
      const { wallet, ata } = h.walletWith(mint, 12_000n);
      const w = wallet.publicKey;
      const holdings = holdingsAddress(w, mint);
      // As activateTierInstructions builds it: the holdings ATA (payer pays its rent), then the activation.
      const outcome = expectOk(
        h.send(
          [
            createAssociatedTokenAccountIdempotentInstruction(
              h.payer.publicKey,
              holdings,
              streamerPda(w),
              mint,
            ),
            await h.activateIx(w, ata, holdings, 'Tier 2', 5_000n * UNIT),
          ],
          [wallet],
        ),
        ACTIVATE_CLIENT,
      );
      expect(h.tokenBalance(ata)).toBe(7_000n * UNIT);
      expect(h.tokenBalance(holdings)).toBe(5_000n * UNIT);
      expect(outcome.logs.some((l) => l.startsWith('Program data: '))).toBe(true);
      expect(outcome.logs.some((l) => l.includes(`${MINING_PROGRAM_ID.toBase58()} consumed`))).toBe(true);
      expectOk(await h.deactivate(wallet, ata), 'deactivate_tier');
      expect(h.tokenBalance(ata)).toBe(12_000n * UNIT);
      expect(h.account(holdings)).toBeNull();
    });

    it('activates and deactivates the last tier of a full table (the longest tier lookup)', async () => {
      const h = await Chain.withTiers([]);
      for (let i = 1; i <= MAX_TIERS; i++) {
        expectOk(await h.addTier(h.authority, `Tier ${i}`.padEnd(32, '*'), BigInt(i) * UNIT), 'add_tier');
      }
      const last = h.config().tiers.at(-1)?.name ?? '';
      expect(last).toHaveLength(32);
      const { wallet, ata } = h.walletWith(h.mint.publicKey, 100n);
      expectOk(await h.activate(wallet, ata, last), ACTIVATE);
      expectCode(await h.activate(wallet, ata, last), ALREADY_ACTIVE, ACTIVATE_REFUSED);
      expectOk(await h.updateTier(h.authority, last, 1n), 'update_tier');
      expectOk(await h.deactivate(wallet, ata), 'deactivate_tier');
      expect(h.tokenBalance(ata)).toBe(100n * UNIT);
      expectOk(await h.removeTier(h.authority, last), 'remove_tier');
    });

    it('every native test has a twin here', () => {
      const native = readdirSync(NATIVE_TESTS, { recursive: true, encoding: 'utf8' })
        .filter((file) => file.endsWith('.rs'))
        .flatMap((file) => [
          ...readFileSync(join(NATIVE_TESTS, file), 'utf8').matchAll(/#\[tokio::test\]\s*async fn (\w+)/g),
        ])
        .map((m) => m[1]?.replaceAll('_', ' ') ?? '');
      expect(native.length).toBeGreaterThanOrEqual(40);
      const own = readFileSync(fileURLToPath(import.meta.url), 'utf8');
      const missing = native.filter((name) => !own.includes(`it('${name}',`));
      expect(missing).toEqual([]);
    });

    it('keeps every instruction within its compute budget', () => {
      for (const name of Object.keys(BUDGETS)) expect(meter.has(name), `${name} was measured`).toBe(true);
      for (const [name, { max }] of meter) {
        expect(max, name).toBeGreaterThan(0);
        expect(max, `${name}: ${max} CU`).toBeLessThanOrEqual(BUDGETS[name] ?? 0);
      }
      expect(meter.get(ACTIVATE)?.max).toBeLessThan(60_000);
    });
  });
});

function tiers(h: Chain): [string, bigint][] {
  return h.config().tiers.map((t) => [t.name, big(t.deposit)]);
}

function unsign(ix: TransactionInstruction, index: number): void {
  const key = ix.keys[index];
  if (!key) throw new Error(`no account ${index}`);
  key.isSigner = false;
}

function replaceKey(ix: TransactionInstruction, index: number, pubkey: PublicKey): void {
  const key = ix.keys[index];
  if (!key) throw new Error(`no account ${index}`);
  key.pubkey = pubkey;
}
