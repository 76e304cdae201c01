// The SBF suite's basics: where the .so and the native suite are, the program's coder (Anchor, from the
// IDL), a transaction's outcome and the checks on it (with the compute units they record), deterministic
// keypairs and decoded events.
import { createHash } from 'node:crypto';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { AnchorProvider, Program, type Wallet } from '@coral-xyz/anchor';
import type BN from 'bn.js';
import { Connection, Keypair, type PublicKey } from '@solana/web3.js';
import type { FailedTransactionMetadata } from 'litesvm';
import { expect } from 'vitest';
import {
  BPF_LOADER_UPGRADEABLE_ID,
  configPda,
  holdingsAddress,
  MINING_PROGRAM_ID,
  streamerPda,
} from '../../src/client.ts';
import idl from '../../src/idl/mining.json' with { type: 'json' };
import type { Mining } from '../../src/idl/mining.ts';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', '..');
export const SO = process.env.STRM_MINING_SO ?? join(root, 'target', 'deploy', 'mining.so');
/** The native suite's test binary: a module per behaviour, the harness in support/. */
export const NATIVE_TESTS = join(root, 'programs', 'mining-tests', 'tests', 'mining');
export const DECIMALS = 6;
export const UNIT = 1_000_000n;
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
export function programUnits(logs: string[]): number | undefined {
  const lines = logs.map((l) => CONSUMED.exec(l)).filter((m) => m !== null);
  return lines.length ? lines.reduce((sum, m) => sum + Number(m[1]), 0) : undefined;
}

/** TransactionError::InstructionError(_, InstructionError::Custom(code)) → code. */
export function customCode(failed: FailedTransactionMetadata): number | undefined {
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
