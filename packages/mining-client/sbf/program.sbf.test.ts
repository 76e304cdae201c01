// The mining program's SBF build (target/deploy/mining.so, from `./run sbf`) run by LiteSVM: the SBF
// loader, the 4 KB stack frame and 32 KB heap, real compute units and CPIs as inner instructions, with
// LiteSVM's SPL Token and Associated Token programs. Run by `pnpm test:sbf` (scripts/sbf/test.mjs), which
// builds the .so first; each instruction's compute units are printed and checked against a budget.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { AnchorProvider, BN, Program, type Wallet } from '@coral-xyz/anchor';
import { address, getTransactionDecoder, lamports } from '@solana/kit';
import {
  ASSOCIATED_TOKEN_PROGRAM_ID,
  AccountLayout,
  MINT_SIZE,
  TOKEN_PROGRAM_ID,
  createAssociatedTokenAccountIdempotentInstruction,
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
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import {
  configPda,
  holdingsAddress,
  MINING_PROGRAM_ID,
  programDataAddress,
  streamerPda,
} from '../src/client.ts';
import idl from '../src/idl/mining.json' with { type: 'json' };
import type { Mining } from '../src/idl/mining.ts';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const SO = process.env.STRM_MINING_SO ?? join(root, 'target', 'deploy', 'mining.so');
const UNIT = 1_000_000n;
const UPGRADEABLE_LOADER = new PublicKey('BPFLoaderUpgradeab1e11111111111111111111111');

const UNAUTHORIZED = 6000;
const ALREADY_ACTIVE = 6001;
const INVALID_TIER = 6003;
const MAX_TIERS_REACHED = 6004;
const DEPOSIT_CHANGED = 6007;
const CONSTRAINT_SEEDS = 2006;
const ACCOUNT_NOT_INITIALIZED = 3012;
const ACCOUNT_NOT_SIGNER = 3010;

// Compute units per instruction, worst case seen, with the budget each must stay within.
const BUDGETS: Record<string, number> = {
  initialize: 20_000,
  add_tier: 15_000,
  update_tier: 15_000,
  remove_tier: 15_000,
  'activate_tier (creates record and holdings)': 60_000,
  'activate_tier refused (already active)': 60_000,
  deactivate_tier: 40_000,
  propose_authority: 15_000,
  accept_authority: 15_000,
};
const measured = new Map<string, number>();

// Anchor builds the instructions and decodes accounts and events; it never touches this connection.
const program = new Program<Mining>(
  idl as Mining,
  new AnchorProvider(new Connection('http://127.0.0.1:1'), {} as Wallet, {}),
);

interface Outcome {
  ok: boolean;
  code?: number;
  logs: string[];
  units: number;
  innerInstructions: number;
}

const CONSUMED = new RegExp(`^Program ${MINING_PROGRAM_ID.toBase58()} consumed (\\d+) of`);
function programUnits(logs: string[]): number | undefined {
  const lines = logs.map((l) => CONSUMED.exec(l)).filter((m) => m !== null);
  return lines.length ? lines.reduce((sum, m) => sum + Number(m[1]), 0) : undefined;
}

class Chain {
  readonly svm = new LiteSVM();
  readonly payer = Keypair.generate();
  readonly authority = Keypair.generate();
  readonly mint = Keypair.generate();

  constructor() {
    this.deploy(readFileSync(SO));
    this.svm.airdrop(address(this.payer.publicKey.toBase58()), lamports(100_000_000_000n));
    this.svm.airdrop(address(this.authority.publicKey.toBase58()), lamports(10_000_000_000n));
  }

  /**
   * Deploys the program as `anchor deploy` leaves it: through the upgradeable loader, its code in the
   * ProgramData account at the loader-derived address, naming the authority as upgrade authority.
   */
  deploy(elf: Buffer): void {
    const [programData] = PublicKey.findProgramAddressSync(
      [MINING_PROGRAM_ID.toBuffer()],
      UPGRADEABLE_LOADER,
    );
    // UpgradeableLoaderState::ProgramData { slot: 0, upgrade_authority_address: Some(authority) }, then the ELF.
    const header = Buffer.alloc(45);
    header.writeUInt32LE(3, 0);
    header[12] = 1;
    this.authority.publicKey.toBuffer().copy(header, 13);
    const data = Buffer.concat([header, elf]);
    // UpgradeableLoaderState::Program { programdata_address }.
    const program = Buffer.alloc(36);
    program.writeUInt32LE(2, 0);
    programData.toBuffer().copy(program, 4);
    const loader = address(UPGRADEABLE_LOADER.toBase58());
    for (const [key, bytes, executable] of [
      [programData, data, false],
      [MINING_PROGRAM_ID, program, true],
    ] as const) {
      this.svm.setAccount({
        address: address(key.toBase58()),
        data: new Uint8Array(bytes),
        executable,
        lamports: lamports(this.svm.minimumBalanceForRentExemption(BigInt(bytes.length))),
        programAddress: loader,
        space: BigInt(bytes.length),
      });
    }
  }

  send(ixs: TransactionInstruction[], signers: Keypair[] = []): Outcome {
    const tx = new Transaction().add(...ixs);
    tx.feePayer = this.payer.publicKey;
    tx.recentBlockhash = this.svm.latestBlockhash();
    tx.sign(this.payer, ...signers.filter((s) => !s.publicKey.equals(this.payer.publicKey)));
    const result = this.svm.sendTransaction(getTransactionDecoder().decode(tx.serialize()));
    this.svm.expireBlockhash();
    const failed = result instanceof FailedTransactionMetadata;
    const meta = failed ? result.meta() : result;
    const logs = meta.logs();
    const custom = logs.map((l) => /failed: custom program error: 0x([0-9a-f]+)/.exec(l)).find(Boolean);
    return {
      ok: !failed,
      code: custom ? Number.parseInt(custom[1] ?? '', 16) : undefined,
      logs,
      // The mining program's own instruction (its CPIs included), as its "consumed" log line says;
      // the whole transaction's otherwise.
      units: programUnits(logs) ?? Number(meta.computeUnitsConsumed()),
      innerInstructions: meta.innerInstructions().flat().length,
    };
  }

  expectOk(ixs: TransactionInstruction[], signers: Keypair[] = [], measure?: string): Outcome {
    const outcome = this.send(ixs, signers);
    expect(outcome.ok, outcome.logs.join('\n')).toBe(true);
    if (measure) measured.set(measure, Math.max(measured.get(measure) ?? 0, outcome.units));
    return outcome;
  }

  expectCode(ixs: TransactionInstruction[], signers: Keypair[], code: number): Outcome {
    const outcome = this.send(ixs, signers);
    expect(outcome.ok, 'the transaction should have failed').toBe(false);
    expect(outcome.code, outcome.logs.join('\n')).toBe(code);
    return outcome;
  }

  account(key: PublicKey) {
    return this.svm.getAccount(address(key.toBase58()));
  }

  tokenBalance(key: PublicKey): bigint {
    const account = this.account(key);
    if (!account.exists) return 0n;
    return AccountLayout.decode(account.data).amount;
  }

  config() {
    const account = this.account(configPda());
    if (!account.exists) throw new Error('no config');
    return program.coder.accounts.decode('config', Buffer.from(account.data));
  }

  /** The tier's deposit as a client shows it (the config's now; 0 for an unknown tier). */
  depositOf(tier: string): BN {
    const found = this.config().tiers.find((t: { name: string }) => t.name === tier);
    return found?.deposit ?? new BN(0);
  }

  streamer(wallet: PublicKey) {
    const account = this.account(streamerPda(wallet));
    return account.exists ? program.coder.accounts.decode('streamer', Buffer.from(account.data)) : null;
  }

  createMint(): void {
    const rent = this.svm.minimumBalanceForRentExemption(BigInt(MINT_SIZE));
    this.expectOk(
      [
        SystemProgram.createAccount({
          fromPubkey: this.payer.publicKey,
          newAccountPubkey: this.mint.publicKey,
          lamports: Number(rent),
          space: MINT_SIZE,
          programId: TOKEN_PROGRAM_ID,
        }),
        createInitializeMint2Instruction(this.mint.publicKey, 6, this.payer.publicKey, null),
      ],
      [this.mint],
    );
  }

  /** A funded wallet whose associated token account holds `tokens` whole tokens. */
  wallet(tokens: bigint): { wallet: Keypair; ata: PublicKey } {
    const wallet = Keypair.generate();
    this.svm.airdrop(address(wallet.publicKey.toBase58()), lamports(1_000_000_000n));
    const ata = getAssociatedTokenAddressSync(this.mint.publicKey, wallet.publicKey);
    this.expectOk([
      createAssociatedTokenAccountIdempotentInstruction(
        this.payer.publicKey,
        ata,
        wallet.publicKey,
        this.mint.publicKey,
      ),
      createMintToInstruction(this.mint.publicKey, ata, this.payer.publicKey, tokens * UNIT),
    ]);
    return { wallet, ata };
  }

  // ---- the program's instructions, built by Anchor from the IDL ----

  async initialize(authority = this.authority) {
    return program.methods
      .initialize()
      .accountsStrict({
        authority: authority.publicKey,
        programData: programDataAddress(),
        config: configPda(),
        tokenMint: this.mint.publicKey,
        systemProgram: SystemProgram.programId,
      })
      .instruction();
  }

  async addTier(name: string, tokens: bigint, authority = this.authority) {
    return program.methods
      .addTier(name, new BN((tokens * UNIT).toString()))
      .accountsStrict({ authority: authority.publicKey, config: configPda() })
      .instruction();
  }

  async updateTier(name: string, tokens: bigint, authority = this.authority) {
    return program.methods
      .updateTier(name, new BN((tokens * UNIT).toString()))
      .accountsStrict({ authority: authority.publicKey, config: configPda() })
      .instruction();
  }

  async removeTier(name: string, authority = this.authority) {
    return program.methods
      .removeTier(name)
      .accountsStrict({ authority: authority.publicKey, config: configPda() })
      .instruction();
  }

  async activate(
    wallet: PublicKey,
    tier: string,
    over: { streamer?: PublicKey; holdings?: PublicKey; expected?: BN } = {},
  ) {
    const streamer = over.streamer ?? streamerPda(wallet);
    const holdings = over.holdings ?? holdingsAddress(wallet, this.mint.publicKey);
    return program.methods
      .activateTier(tier, over.expected ?? this.depositOf(tier))
      .accountsStrict({
        wallet,
        config: configPda(),
        streamer,
        tokenMint: this.mint.publicKey,
        walletTokenAccount: getAssociatedTokenAddressSync(this.mint.publicKey, wallet),
        holdings,
        tokenProgram: TOKEN_PROGRAM_ID,
        associatedTokenProgram: ASSOCIATED_TOKEN_PROGRAM_ID,
        systemProgram: SystemProgram.programId,
      })
      .instruction();
  }

  /** The holdings ATA first (as the client does), then the activation. */
  async activation(wallet: PublicKey, tier: string) {
    const holdings = holdingsAddress(wallet, this.mint.publicKey);
    return [
      createAssociatedTokenAccountIdempotentInstruction(
        this.payer.publicKey,
        holdings,
        streamerPda(wallet),
        this.mint.publicKey,
      ),
      await this.activate(wallet, tier),
    ];
  }

  async deactivate(wallet: PublicKey, of: PublicKey = wallet) {
    return program.methods
      .deactivateTier()
      .accountsStrict({
        wallet,
        config: configPda(),
        streamer: streamerPda(of),
        tokenMint: this.mint.publicKey,
        walletTokenAccount: getAssociatedTokenAddressSync(this.mint.publicKey, wallet),
        holdings: holdingsAddress(of, this.mint.publicKey),
        tokenProgram: TOKEN_PROGRAM_ID,
      })
      .instruction();
  }
}

const haveSo = existsSync(SO);

describe.skipIf(!haveSo)('the mining program as SBF (LiteSVM)', () => {
  let chain: Chain;

  beforeEach(async () => {
    chain = new Chain();
    chain.createMint();
    chain.expectOk([await chain.initialize()], [chain.authority], 'initialize');
  });

  afterAll(() => {
    const lines = Object.entries(BUDGETS).map(([name, budget]) => {
      const units = measured.get(name);
      return `${name.padEnd(48)} ${String(units ?? '-').padStart(7)} CU  (budget ${budget})`;
    });
    const table = `${lines.join('\n')}\n`;
    mkdirSync(dirname(SO), { recursive: true });
    writeFileSync(join(dirname(SO), 'mining-compute-units.txt'), table);
    console.log(`Compute units of ${SO}:\n${table}`);
  });

  it('initialises the config once, for its authority and mint', async () => {
    const config = chain.config();
    expect(config.authority.toBase58()).toBe(chain.authority.publicKey.toBase58());
    expect(config.tokenMint.toBase58()).toBe(chain.mint.publicKey.toBase58());
    expect(config.tokenDecimals).toBe(6);
    expect(config.tiers).toEqual([]);
    const again = chain.send([await chain.initialize()], [chain.authority]);
    expect(again.ok).toBe(false);
  });

  it('lets the authority add, update and remove tiers, within the bounds', async () => {
    chain.expectOk([await chain.addTier('Bronze', 1_000n)], [chain.authority], 'add_tier');
    chain.expectOk([await chain.updateTier('Bronze', 2_000n)], [chain.authority], 'update_tier');
    expect(
      chain.config().tiers.map((t: { name: string; deposit: BN }) => [t.name, BigInt(t.deposit.toString())]),
    ).toEqual([['Bronze', 2_000n * UNIT]]);
    chain.expectCode([await chain.addTier('Bronze', 5n)], [chain.authority], INVALID_TIER);
    chain.expectCode([await chain.updateTier('Nope', 5n)], [chain.authority], INVALID_TIER);
    chain.expectOk([await chain.removeTier('Bronze')], [chain.authority], 'remove_tier');
    expect(chain.config().tiers).toEqual([]);
    for (let i = 0; i < 16; i++) chain.expectOk([await chain.addTier(`Tier ${i}`, 1n)], [chain.authority]);
    chain.expectCode([await chain.addTier('Tier 16', 1n)], [chain.authority], MAX_TIERS_REACHED);
  });

  it('refuses tier changes by anyone but the authority', async () => {
    const intruder = Keypair.generate();
    chain.svm.airdrop(address(intruder.publicKey.toBase58()), lamports(1_000_000_000n));
    chain.expectCode([await chain.addTier('Bronze', 1n, intruder)], [intruder], UNAUTHORIZED);
    chain.expectOk([await chain.addTier('Bronze', 1n)], [chain.authority]);
    chain.expectCode([await chain.updateTier('Bronze', 0n, intruder)], [intruder], UNAUTHORIZED);
    chain.expectCode([await chain.removeTier('Bronze', intruder)], [intruder], UNAUTHORIZED);
  });

  it('activation moves exactly the deposit into new holdings, with the CPIs as inner instructions and an event', async () => {
    chain.expectOk([await chain.addTier('Silver', 5_000n)], [chain.authority]);
    const { wallet, ata } = chain.wallet(12_000n);
    const outcome = chain.expectOk(
      await chain.activation(wallet.publicKey, 'Silver'),
      [wallet],
      'activate_tier (creates record and holdings)',
    );
    const holdings = holdingsAddress(wallet.publicKey, chain.mint.publicKey);
    expect(chain.tokenBalance(ata)).toBe(7_000n * UNIT);
    expect(chain.tokenBalance(holdings)).toBe(5_000n * UNIT);
    const record = chain.streamer(wallet.publicKey);
    expect(record?.isActive).toBe(true);
    expect(record?.tierName).toBe('Silver');
    expect(BigInt(record?.deposited.toString() ?? '0')).toBe(5_000n * UNIT);
    expect(BigInt(chain.config().totalDeposited.toString())).toBe(5_000n * UNIT);
    // The SBF runtime's view: the token transfer and the record's creation are CPIs, the event is logged.
    expect(outcome.innerInstructions).toBeGreaterThan(0);
    expect(outcome.logs.some((l) => l.startsWith('Program data: '))).toBe(true);
    expect(outcome.logs.some((l) => l.includes(`${MINING_PROGRAM_ID.toBase58()} consumed`))).toBe(true);
  });

  it('refuses a second activation, an unknown tier and a short balance', async () => {
    chain.expectOk([await chain.addTier('Silver', 5_000n)], [chain.authority]);
    const { wallet, ata } = chain.wallet(6_000n);
    chain.expectCode(await chain.activation(wallet.publicKey, 'Platinum'), [wallet], INVALID_TIER);
    chain.expectOk(await chain.activation(wallet.publicKey, 'Silver'), [wallet]);
    const again = chain.expectCode(
      [await chain.activate(wallet.publicKey, 'Silver')],
      [wallet],
      ALREADY_ACTIVE,
    );
    measured.set('activate_tier refused (already active)', again.units);
    expect(chain.tokenBalance(ata)).toBe(1_000n * UNIT);
    const poor = chain.wallet(10n);
    const short = chain.send(await chain.activation(poor.wallet.publicKey, 'Silver'), [poor.wallet]);
    expect(short.ok).toBe(false);
    expect(chain.tokenBalance(poor.ata)).toBe(10n * UNIT);
  });

  it('deactivation returns the whole holdings; without an active record it fails', async () => {
    chain.expectOk([await chain.addTier('Silver', 5_000n)], [chain.authority]);
    const { wallet, ata } = chain.wallet(5_000n);
    // Never activated: there is no record to deactivate.
    chain.expectCode([await chain.deactivate(wallet.publicKey)], [wallet], ACCOUNT_NOT_INITIALIZED);
    chain.expectOk(await chain.activation(wallet.publicKey, 'Silver'), [wallet]);
    expect(chain.tokenBalance(ata)).toBe(0n);
    const outcome = chain.expectOk([await chain.deactivate(wallet.publicKey)], [wallet], 'deactivate_tier');
    expect(chain.tokenBalance(ata)).toBe(5_000n * UNIT);
    expect(chain.tokenBalance(holdingsAddress(wallet.publicKey, chain.mint.publicKey))).toBe(0n);
    expect(BigInt(chain.config().totalDeposited.toString())).toBe(0n);
    expect(outcome.innerInstructions).toBeGreaterThan(0);
    expect(outcome.logs.some((l) => l.startsWith('Program data: '))).toBe(true);
    // Deactivation closed the record (and the holdings): nothing is left to deactivate.
    expect(chain.streamer(wallet.publicKey)).toBeNull();
    chain.expectCode([await chain.deactivate(wallet.publicKey)], [wallet], ACCOUNT_NOT_INITIALIZED);
  });

  it("one wallet cannot touch another wallet's record or holdings", async () => {
    chain.expectOk([await chain.addTier('Silver', 5_000n)], [chain.authority]);
    const victim = chain.wallet(5_000n);
    chain.expectOk(await chain.activation(victim.wallet.publicKey, 'Silver'), [victim.wallet]);
    const thief = chain.wallet(0n);
    // The thief signs, naming the victim's record and holdings: the record's seeds are the signer's.
    chain.expectCode(
      [await chain.deactivate(thief.wallet.publicKey, victim.wallet.publicKey)],
      [thief.wallet],
      CONSTRAINT_SEEDS,
    );
    // Activating in the victim's name without its signature.
    const unsigned = await chain.activate(victim.wallet.publicKey, 'Silver');
    for (const key of unsigned.keys) if (key.pubkey.equals(victim.wallet.publicKey)) key.isSigner = false;
    chain.expectCode([unsigned], [], ACCOUNT_NOT_SIGNER);
    expect(chain.tokenBalance(holdingsAddress(victim.wallet.publicKey, chain.mint.publicKey))).toBe(
      5_000n * UNIT,
    );
    expect(chain.tokenBalance(thief.ata)).toBe(0n);
  });

  it('pays only the deposit the wallet agreed to', async () => {
    chain.expectOk([await chain.addTier('Silver', 5_000n)], [chain.authority]);
    const { wallet, ata } = chain.wallet(10_000n);
    const shown = chain.depositOf('Silver');
    chain.expectOk([await chain.updateTier('Silver', 6_000n)], [chain.authority]);
    const [createHoldings] = await chain.activation(wallet.publicKey, 'Silver');
    chain.expectCode(
      [
        createHoldings as TransactionInstruction,
        await chain.activate(wallet.publicKey, 'Silver', { expected: shown }),
      ],
      [wallet],
      DEPOSIT_CHANGED,
    );
    expect(chain.tokenBalance(ata)).toBe(10_000n * UNIT);
  });

  it('hands the authority over in two steps', async () => {
    const successor = Keypair.generate();
    chain.svm.airdrop(address(successor.publicKey.toBase58()), lamports(1_000_000_000n));
    const propose = await program.methods
      .proposeAuthority(successor.publicKey)
      .accountsStrict({ authority: chain.authority.publicKey, config: configPda() })
      .instruction();
    chain.expectOk([propose], [chain.authority], 'propose_authority');
    const accept = await program.methods
      .acceptAuthority()
      .accountsStrict({ newAuthority: successor.publicKey, config: configPda() })
      .instruction();
    chain.expectOk([accept], [successor], 'accept_authority');
    expect(chain.config().authority.toBase58()).toBe(successor.publicKey.toBase58());
    chain.expectCode([await chain.addTier('Bronze', 1n)], [chain.authority], UNAUTHORIZED);
    chain.expectOk([await chain.addTier('Bronze', 1n, successor)], [successor]);
  });

  it('keeps every instruction within its compute budget', () => {
    for (const [name, units] of measured) {
      expect(units, name).toBeGreaterThan(0);
      expect(units, `${name}: ${units} CU`).toBeLessThanOrEqual(BUDGETS[name] ?? 0);
    }
    expect(measured.get('activate_tier (creates record and holdings)')).toBeLessThan(60_000);
  });
});
