// The program's error codes and the client-side messages of docs/product.md#messages, in one place for both
// apps.
import idl from './idl/mining.json' with { type: 'json' };
import type { Mining } from './idl/mining.ts';

export type ProgramErrorCode = Mining['errors'][number]['code'];

/**
 * The program's own errors (6000-6006 as docs/product.md#on-chain-errors lists them, then the program's
 * additions) as its IDL declares them, so the client never restates them.
 */
export const PROGRAM_ERRORS = Object.fromEntries(
  idl.errors.map((e) => [e.code, { name: e.name, message: e.msg }]),
) as Record<ProgramErrorCode, { name: string; message: string }>;

export const CLIENT_MESSAGES = {
  tierNotFound: 'Tier not found',
  walletNotConnected: 'Wallet not connected',
  programNotInitialized: 'Program not initialized',
  networkCongestion:
    'The Solana network is currently experiencing high traffic. Please try again in a few minutes.',
} as const;

/** A failure the client raises itself, before anything is sent. */
export class MiningClientError extends Error {}

export interface ProgramError {
  code: ProgramErrorCode;
  name: string;
  message: string;
}

function messageOf(err: unknown): string {
  if (err instanceof Error) return err.message;
  return typeof err === 'string' ? err : (JSON.stringify(err) ?? String(err));
}

function logsOf(err: unknown): string[] {
  const logs =
    (err as { logs?: unknown; transactionLogs?: unknown } | null)?.logs ??
    (err as { transactionLogs?: unknown } | null)?.transactionLogs;
  return Array.isArray(logs) ? logs.map(String) : [];
}

function codeIn(text: string): number | undefined {
  const custom = /custom program error: 0x([0-9a-f]+)/i.exec(text);
  if (custom) return Number.parseInt(custom[1]!, 16);
  const anchor = /Error Number: (\d+)/.exec(text);
  if (anchor) return Number(anchor[1]);
  const json = /"Custom":\s*(\d+)/.exec(text);
  return json ? Number(json[1]) : undefined;
}

/** The mining program's error behind whatever a client library threw, if it is one of its own. */
export function programErrorOf(err: unknown): ProgramError | null {
  const direct = (err as { error?: { errorCode?: { number?: number } } } | null)?.error?.errorCode?.number;
  const code = direct ?? codeIn([messageOf(err), ...logsOf(err)].join('\n'));
  if (code === undefined || !(code in PROGRAM_ERRORS)) return null;
  const known = PROGRAM_ERRORS[code as ProgramErrorCode];
  return { code: code as ProgramErrorCode, ...known };
}

/** Blockhash not found, network congestion, rate limits and timeouts read as congestion. */
export function isNetworkCongestion(err: unknown): boolean {
  return /blockhash not found|network congestion|rate limit|too many requests|429|timeout|timed out/i.test(
    messageOf(err),
  );
}

/** What a user should read for a failed blockchain action. */
export function userMessageOf(err: unknown, fallback: string): string {
  if (err instanceof MiningClientError) return err.message;
  const programError = programErrorOf(err);
  if (programError) return programError.message;
  if (isNetworkCongestion(err)) return CLIENT_MESSAGES.networkCongestion;
  return fallback;
}
