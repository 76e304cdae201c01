// The SBF suite's harness: the program's SBF build (target/deploy/mining.so) in LiteSVM with its SPL Token
// and Associated Token programs. It mirrors the native harness (programs/mining-tests/tests/mining/support)
// method for method, so that each native test has a twin here that reads the same: a started chain with a
// 6-decimal mint that has no freeze authority, the program deployed as `anchor deploy` leaves it, and the
// program's instructions built by Anchor from the IDL. Amounts are base units (`UNIT` per whole token).
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { AnchorProvider, Program, type Wallet } from '@coral-xyz/anchor';
import BN from 'bn.js';
import { address, getTransactionDecoder, lamports } from '@solana/kit';
import {
  ACCOUNT_SIZE,
  ASSOCIATED_TOKEN_PROGRAM_ID,
  AccountLayout,
  MINT_SIZE,
  TOKEN_PROGRAM_ID,
  createAssociatedTokenAccountInstruction,
  createInitializeAccount3Instruction,
  createInitializeMint2Instruction,
  createMintToInstruction,
  getAssociatedTokenAddressSync,
} from '@solana/spl-token';
import {
  Connection,
  Keypair,
  PublicKey,
  SystemProgram,
  Transaction,
  type TransactionInstruction,
} from '@solana/web3.js';
import { FailedTransactionMetadata, LiteSVM } from 'litesvm';
import { expect } from 'vitest';
import {
  BPF_LOADER_UPGRADEABLE_ID,
  configPda,
  holdingsAddress,
  MINING_PROGRAM_ID,
  programDataAddress,
  streamerPda,
} from '../src/client.ts';
import idl from '../src/idl/mining.json' with { type: 'json' };
import type { Mining } from '../src/idl/mining.ts';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
export const SO = process.env.STRM_MINING_SO ?? join(root, 'target', 'deploy', 'mining.so');
/** The native suite's test binary: a module per behaviour, the harness in support/. */
export const NATIVE_TESTS = join(root, 'programs', 'mining-tests', 'tests', 'mining');
export const DECIMALS = 6;
export const UNIT = 1_000_000n;
const BPF_LOADER_2 = new PublicKey('BPFLoader2111111111111111111111111111111111');

export { BPF_LOADER_UPGRADEABLE_ID, configPda, holdingsAddress, MINING_PROGRAM_ID, streamerPda };

// Anchor builds the instructions and decodes accounts and events; it never touches this connection.
export const program = new Program<Mining>(
  idl as Mining,
  new AnchorProvider(new Connection('http://127.0.0.1:1'), {} as Wallet, {}),
);

export type ConfigState = Awaited<ReturnType<typeof program.account.config.fetch>>;
export type StreamerState = Awaited<ReturnType<typeof program.account.streamer.fetch>>;

export interface Outcome {
  ok: boolean;
  /** The failing instruction's custom error code, as the native harness's `custom_code` reads it. */
  code?: number;
  logs: string[];
  /** The mining program's compute units (its CPIs included), from its "consumed" log lines. */
  units: number;
  innerInstructions: number;
}

const CONSUMED = new RegExp(`^Program ${MINING_PROGRAM_ID.toBase58()} consumed (\\d+) of`);
function programUnits(logs: string[]): number | undefined {
  const lines = logs.map((l) => CONSUMED.exec(l)).filter((m) => m !== null);
  return lines.length ? lines.reduce((sum, m) => sum + Number(m[1]), 0) : undefined;
}

/** TransactionError::InstructionError(_, InstructionError::Custom(code)) → code. */
function customCode(failed: FailedTransactionMetadata): number | undefined {
  const err = failed.err() as { err?: () => unknown };
  const inner = typeof err.err === 'function' ? (err.err() as { code?: unknown } | number) : undefined;
  return typeof inner === 'object' && typeof inner?.code === 'number' ? inner.code : undefined;
}

let series = { test: '', count: 0 };
/**
 * A keypair derived from the running test's name and a counter: every run (and every filtered run) gets
 * the same keys, so the compute units, which depend on the PDA bump search of the wallet's record and
 * holdings, are the same every run instead of varying by thousands with random wallets.
 */
export function keypair(): Keypair {
  const test = expect.getState().currentTestName ?? '';
  if (series.test !== test) series = { test, count: 0 };
  series.count += 1;
  return Keypair.fromSeed(createHash('sha256').update(`${test}#${series.count}`).digest());
}

/** Compute units per label, lowest and highest seen (the PDA bump search depends on the wallet). */
export const meter = new Map<string, { min: number; max: number }>();

function record(label: string, units: number): void {
  const seen = meter.get(label);
  meter.set(label, { min: Math.min(seen?.min ?? units, units), max: Math.max(seen?.max ?? units, units) });
}

export function expectOk(outcome: Outcome, measure?: string): Outcome {
  expect(outcome.ok, outcome.logs.join('\n')).toBe(true);
  if (measure) record(measure, outcome.units);
  return outcome;
}

export function expectCode(outcome: Outcome, code: number, measure?: string): Outcome {
  expect(outcome.ok, `expected error ${code}, the transaction succeeded`).toBe(false);
  expect(outcome.code, `unexpected failure:\n${outcome.logs.join('\n')}`).toBe(code);
  if (measure) record(measure, outcome.units);
  return outcome;
}

/** The events named `name` (Anchor's camelCase) in a transaction's logs, decoded as an indexer reads them. */
export function events(logs: string[], name: 'tierActivated' | 'tierDeactivated') {
  return logs
    .filter((l) => l.startsWith('Program data: '))
    .map((l) => program.coder.events.decode(l.slice('Program data: '.length)))
    .filter((e) => e?.name === name)
    .map((e) => e?.data as { wallet: PublicKey; tier: string; amount: BN; timestamp: BN });
}

export const big = (n: BN | bigint | number): bigint => BigInt(n.toString());

/**
 * How the program is deployed: `upgradeable` as `anchor deploy` leaves it (ProgramData naming the upgrade
 * authority, or none once made immutable), or `not-upgradeable` (BPF loader 2: no ProgramData at all).
 */
export type Deployment = { upgradeAuthority: PublicKey | null } | 'not-upgradeable';

export class Chain {
  readonly svm = new LiteSVM();
  readonly payer = keypair();
  readonly mint = keypair();

  private constructor(
    readonly authority: Keypair,
    deployment: Deployment,
  ) {
    const elf = readFileSync(SO);
    if (deployment === 'not-upgradeable') {
      this.svm.addProgramWithLoader(
        address(MINING_PROGRAM_ID.toBase58()),
        elf,
        address(BPF_LOADER_2.toBase58()),
      );
    } else {
      this.deployUpgradeable(elf, deployment.upgradeAuthority);
    }
    this.svm.airdrop(address(this.payer.publicKey.toBase58()), lamports(100_000_000_000n));
  }

  /** Started, with the mint created and the program deployed with `authority` as its upgrade authority. */
  static start(authority = keypair(), deployment?: Deployment): Chain {
    const chain = new Chain(authority, deployment ?? { upgradeAuthority: authority.publicKey });
    chain.airdrop(authority.publicKey, 10_000_000_000n);
    chain.createMint(chain.mint);
    return chain;
  }

  /** Started, with the config initialised and the given tiers (name, whole tokens) added. */
  static async withTiers(tiers: [string, bigint][]): Promise<Chain> {
    const chain = Chain.start();
    expectOk(await chain.initialize(), 'initialize');
    for (const [name, tokens] of tiers) {
      expectOk(await chain.addTier(chain.authority, name, tokens * UNIT), 'add_tier');
    }
    return chain;
  }

  /** ProgramData (the loader's header, then the ELF) at the loader-derived address, and the program. */
  private deployUpgradeable(elf: Buffer, upgradeAuthority: PublicKey | null): void {
    const data = Buffer.concat([programDataHeader(upgradeAuthority), elf]);
    // UpgradeableLoaderState::Program { programdata_address }.
    const programAccount = Buffer.alloc(36);
    programAccount.writeUInt32LE(2, 0);
    programDataAddress().toBuffer().copy(programAccount, 4);
    this.setAccount(programDataAddress(), data, BPF_LOADER_UPGRADEABLE_ID);
    this.setAccount(MINING_PROGRAM_ID, programAccount, BPF_LOADER_UPGRADEABLE_ID, true);
  }

  /** Writes an account as it is (a state no transaction of the program could make), rent-exempt. */
  setAccount(key: PublicKey, data: Buffer, owner: PublicKey, executable = false, lamportsOf?: bigint): void {
    this.svm.setAccount({
      address: address(key.toBase58()),
      data: new Uint8Array(data),
      executable,
      lamports: lamports(lamportsOf ?? this.svm.minimumBalanceForRentExemption(BigInt(data.length))),
      programAddress: address(owner.toBase58()),
      space: BigInt(data.length),
    });
  }

  /**
   * A transaction paid by the harness's payer (or `feePayer`), signed by it and `signers`, on a fresh
   * blockhash.
   */
  send(ixs: TransactionInstruction[], signers: Keypair[] = [], feePayer = this.payer): Outcome {
    const tx = new Transaction().add(...ixs);
    tx.feePayer = feePayer.publicKey;
    tx.recentBlockhash = this.svm.latestBlockhash();
    tx.sign(feePayer, ...signers.filter((s) => !s.publicKey.equals(feePayer.publicKey)));
    const result = this.svm.sendTransaction(getTransactionDecoder().decode(tx.serialize()));
    this.svm.expireBlockhash();
    const failed = result instanceof FailedTransactionMetadata;
    const meta = failed ? result.meta() : result;
    const logs = meta.logs();
    return {
      ok: !failed,
      code: failed ? customCode(result) : undefined,
      logs,
      units: programUnits(logs) ?? Number(meta.computeUnitsConsumed()),
      innerInstructions: meta.innerInstructions().flat().length,
    };
  }

  airdrop(to: PublicKey, amount: bigint): void {
    expectOk(
      this.send([
        SystemProgram.transfer({ fromPubkey: this.payer.publicKey, toPubkey: to, lamports: amount }),
      ]),
    );
  }

  account(key: PublicKey) {
    const account = this.svm.getAccount(address(key.toBase58()));
    return account.exists ? account : null;
  }

  lamports(key: PublicKey): bigint {
    return BigInt(this.account(key)?.lamports ?? 0n);
  }

  tokenBalance(key: PublicKey): bigint {
    const account = this.account(key);
    if (!account) throw new Error(`no token account at ${key.toBase58()}`);
    return AccountLayout.decode(account.data).amount;
  }

  tokenState(key: PublicKey) {
    const account = this.account(key);
    if (!account) throw new Error(`no token account at ${key.toBase58()}`);
    return AccountLayout.decode(account.data);
  }

  config(): ConfigState {
    const account = this.account(configPda());
    if (!account) throw new Error('no config');
    return program.coder.accounts.decode('config', Buffer.from(account.data));
  }

  streamer(wallet: PublicKey): StreamerState {
    const account = this.account(streamerPda(wallet));
    if (!account) throw new Error(`no streamer record for ${wallet.toBase58()}`);
    return program.coder.accounts.decode('streamer', Buffer.from(account.data));
  }

  /** Overwrites an Anchor account's data in place, keeping its size and lamports (and owner, unless given). */
  async forge(
    key: PublicKey,
    name: 'config' | 'streamer',
    value: ConfigState | StreamerState,
    owner?: PublicKey,
  ) {
    const existing = this.account(key);
    if (!existing) throw new Error(`no account at ${key.toBase58()}`);
    const data = Buffer.alloc(existing.data.length);
    (await program.coder.accounts.encode(name, value)).copy(data);
    const keptOwner = owner ?? new PublicKey(existing.programAddress);
    this.setAccount(key, data, keptOwner, false, BigInt(existing.lamports));
  }

  unixTimestamp(): bigint {
    return this.svm.getClock().unixTimestamp;
  }

  advanceClock(seconds: bigint): void {
    const clock = this.svm.getClock();
    clock.unixTimestamp += seconds;
    this.svm.setClock(clock);
  }

  createMint(mint: Keypair, freezeAuthority: PublicKey | null = null): void {
    const rent = this.svm.minimumBalanceForRentExemption(BigInt(MINT_SIZE));
    expectOk(
      this.send(
        [
          SystemProgram.createAccount({
            fromPubkey: this.payer.publicKey,
            newAccountPubkey: mint.publicKey,
            lamports: Number(rent),
            space: MINT_SIZE,
            programId: TOKEN_PROGRAM_ID,
          }),
          createInitializeMint2Instruction(mint.publicKey, DECIMALS, this.payer.publicKey, freezeAuthority),
        ],
        [mint],
      ),
    );
  }

  /** A funded wallet with an associated token account holding `tokens` whole tokens of `mint`. */
  walletWith(mint: PublicKey, tokens: bigint): { wallet: Keypair; ata: PublicKey } {
    const wallet = keypair();
    this.airdrop(wallet.publicKey, 1_000_000_000n);
    const ata = getAssociatedTokenAddressSync(mint, wallet.publicKey);
    expectOk(
      this.send([createAssociatedTokenAccountInstruction(this.payer.publicKey, ata, wallet.publicKey, mint)]),
    );
    if (tokens > 0n) this.mintTo(mint, ata, tokens * UNIT);
    return { wallet, ata };
  }

  /** A plain (non-associated) token account at `account` for `owner`. */
  createTokenAccount(account: Keypair, mint: PublicKey, owner: PublicKey): void {
    const rent = this.svm.minimumBalanceForRentExemption(BigInt(ACCOUNT_SIZE));
    expectOk(
      this.send(
        [
          SystemProgram.createAccount({
            fromPubkey: this.payer.publicKey,
            newAccountPubkey: account.publicKey,
            lamports: Number(rent),
            space: ACCOUNT_SIZE,
            programId: TOKEN_PROGRAM_ID,
          }),
          createInitializeAccount3Instruction(account.publicKey, mint, owner),
        ],
        [account],
      ),
    );
  }

  mintTo(mint: PublicKey, to: PublicKey, amount: bigint): void {
    expectOk(this.send([createMintToInstruction(mint, to, this.payer.publicKey, amount)]));
  }

  // ---- the program's instructions ----

  initializeIx(authority: PublicKey, mint: PublicKey) {
    return program.methods
      .initialize()
      .accountsStrict({
        authority,
        programData: programDataAddress(),
        config: configPda(),
        tokenMint: mint,
        systemProgram: SystemProgram.programId,
      })
      .instruction();
  }

  async initialize(): Promise<Outcome> {
    return this.send(
      [await this.initializeIx(this.authority.publicKey, this.mint.publicKey)],
      [this.authority],
    );
  }

  async addTier(signer: Keypair, name: string, deposit: bigint): Promise<Outcome> {
    const ix = await program.methods
      .addTier(name, new BN(deposit.toString()))
      .accountsStrict({ authority: signer.publicKey, config: configPda() })
      .instruction();
    return this.send([ix], [signer]);
  }

  async updateTier(signer: Keypair, name: string, deposit: bigint): Promise<Outcome> {
    const ix = await program.methods
      .updateTier(name, new BN(deposit.toString()))
      .accountsStrict({ authority: signer.publicKey, config: configPda() })
      .instruction();
    return this.send([ix], [signer]);
  }

  async removeTier(signer: Keypair, name: string): Promise<Outcome> {
    const ix = await program.methods
      .removeTier(name)
      .accountsStrict({ authority: signer.publicKey, config: configPda() })
      .instruction();
    return this.send([ix], [signer]);
  }

  async proposeAuthority(signer: Keypair, newAuthority: PublicKey | null): Promise<Outcome> {
    const ix = await program.methods
      .proposeAuthority(newAuthority)
      .accountsStrict({ authority: signer.publicKey, config: configPda() })
      .instruction();
    return this.send([ix], [signer]);
  }

  async acceptAuthority(signer: Keypair): Promise<Outcome> {
    const ix = await program.methods
      .acceptAuthority()
      .accountsStrict({ newAuthority: signer.publicKey, config: configPda() })
      .instruction();
    return this.send([ix], [signer]);
  }

  activateIx(
    wallet: PublicKey,
    walletToken: PublicKey,
    holdings: PublicKey,
    tier: string,
    expectedDeposit: bigint,
  ): Promise<TransactionInstruction> {
    return program.methods
      .activateTier(tier, new BN(expectedDeposit.toString()))
      .accountsStrict({
        wallet,
        config: configPda(),
        streamer: streamerPda(wallet),
        tokenMint: this.mint.publicKey,
        walletTokenAccount: walletToken,
        holdings,
        tokenProgram: TOKEN_PROGRAM_ID,
        associatedTokenProgram: ASSOCIATED_TOKEN_PROGRAM_ID,
        systemProgram: SystemProgram.programId,
      })
      .instruction();
  }

  /** The deposit a client shows for `tier` (the config's current one; 0 for an unknown tier). */
  depositOf(tier: string): bigint {
    const found = this.config().tiers.find((t) => t.name === tier);
    return found ? big(found.deposit) : 0n;
  }

  /** Activates `tier`, expecting the deposit the config asks now (as a client that just read it). */
  activate(wallet: Keypair, walletToken: PublicKey, tier: string): Promise<Outcome> {
    return this.activateExpecting(wallet, walletToken, tier, this.depositOf(tier));
  }

  async activateExpecting(
    wallet: Keypair,
    walletToken: PublicKey,
    tier: string,
    expectedDeposit: bigint,
  ): Promise<Outcome> {
    const holdings = holdingsAddress(wallet.publicKey, this.mint.publicKey);
    const ix = await this.activateIx(wallet.publicKey, walletToken, holdings, tier, expectedDeposit);
    return this.send([ix], [wallet]);
  }

  deactivateIx(
    wallet: PublicKey,
    streamer: PublicKey,
    walletToken: PublicKey,
    holdings: PublicKey,
  ): Promise<TransactionInstruction> {
    return program.methods
      .deactivateTier()
      .accountsStrict({
        wallet,
        config: configPda(),
        streamer,
        tokenMint: this.mint.publicKey,
        walletTokenAccount: walletToken,
        holdings,
        tokenProgram: TOKEN_PROGRAM_ID,
      })
      .instruction();
  }

  async deactivate(wallet: Keypair, walletToken: PublicKey): Promise<Outcome> {
    const w = wallet.publicKey;
    const ix = await this.deactivateIx(
      w,
      streamerPda(w),
      walletToken,
      holdingsAddress(w, this.mint.publicKey),
    );
    return this.send([ix], [wallet]);
  }
}

/** UpgradeableLoaderState::ProgramData { slot: 0, upgrade_authority_address } as the loader writes it. */
export function programDataHeader(upgradeAuthority: PublicKey | null): Buffer {
  const header = Buffer.alloc(45);
  header.writeUInt32LE(3, 0);
  if (upgradeAuthority) {
    header[12] = 1;
    upgradeAuthority.toBuffer().copy(header, 13);
  }
  return header;
}
