// Reading database errors. Telling "the database is away" (refused, dropped, restarting, timed out) from every other database error:
// the first is answered 503 with Retry-After and a message a user can act on, and the background loops retry
// it; the others are bugs or refusals and keep their own handling.
import { Prisma } from '../generated/prisma/client.ts';

/** Prisma's codes for a server it cannot reach, a timed-out or dropped connection. */
const PRISMA_UNREACHABLE = new Set(['P1001', 'P1002', 'P1008', 'P1017', 'P2024']);
/** The pg driver adapter's error kinds for the same. */
const ADAPTER_UNREACHABLE = new Set([
  'DatabaseNotReachable',
  'ConnectionClosed',
  'SocketTimeout',
  'TooManyConnections',
  'TransactionAlreadyClosed',
]);
/** Node's socket errors. */
const SOCKET_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENOTFOUND',
]);

/**
 * PostgreSQL's SQLSTATEs for a server going away: class 08 (connection exception) and 57P01-57P03 (admin or
 * crash shutdown, cannot connect now).
 */
function serverGoingAway(code: unknown): boolean {
  return typeof code === 'string' && (code.startsWith('08') || /^57P0[123]$/.test(code));
}

export function isDatabaseUnavailable(err: unknown): boolean {
  if (err instanceof Prisma.PrismaClientInitializationError) return true;
  if (err instanceof Prisma.PrismaClientKnownRequestError) {
    if (PRISMA_UNREACHABLE.has(err.code)) return true;
    const cause = (err.meta as { driverAdapterError?: { cause?: { kind?: string; code?: string } } })
      ?.driverAdapterError?.cause;
    return Boolean(cause && (ADAPTER_UNREACHABLE.has(cause.kind ?? '') || serverGoingAway(cause.code)));
  }
  if (err instanceof Prisma.PrismaClientUnknownRequestError) {
    return /connection|terminat|ECONNREFUSED|ECONNRESET/i.test(err.message);
  }
  const e = err as { code?: unknown; message?: unknown } | null;
  if (!e || typeof e !== 'object') return false;
  if (typeof e.code === 'string' && (SOCKET_CODES.has(e.code) || serverGoingAway(e.code))) return true;
  // pg's own messages for a connection that ended or never came.
  return (
    typeof e.message === 'string' &&
    /Connection terminated|connection timeout|Client has encountered a connection error/i.test(e.message)
  );
}

/** Seconds a client should wait before trying again while the database is away. */
export const DATABASE_RETRY_AFTER_SECONDS = 5;

/** A unique constraint refused the row (Prisma's P2002, or PostgreSQL's 23505 through a raw statement). */
export function isUniqueViolation(err: unknown): boolean {
  const e = err as { code?: string; message?: string };
  return e?.code === 'P2002' || /unique constraint|23505/i.test(e?.message ?? '');
}
