// What a live session has earned at a moment, from its start, its rate fixed at the start, its daily cap,
// its 10-day boundary and the drop of its last socket. Pure: no I/O and no clock (the caller passes the
// moment); amounts are base units.
import { SECONDS_PER_HOUR } from '@strm/shared';
import { type LocalDay, localDay } from './daily.ts';
import type { EndReason } from './types.ts';

const MS_PER_HOUR = BigInt(SECONDS_PER_HOUR * 1000);

export interface AccrualState {
  startedAtMs: number;
  /** Base units per hour, fixed when the session started. */
  rateUnitsPerHour: bigint;
  /** Live milliseconds of the session's local start day mined before it (daily cap). */
  usedBeforeMs: number;
  timezone: string;
  /** The daily cap (null: unreachable) and the 10-day boundary (null: max rate reached). */
  capAtMs: number | null;
  boundaryAtMs: number | null;
  /** Set while no socket of the wallet is connected: the last moment one was. */
  disconnectedAtMs: number | null;
  /** The local day of the last figures (a cache: zone arithmetic is not free at thousands a second). */
  day?: LocalDay | undefined;
}

/** The session's figures at a moment. */
export interface Accrual {
  /** The last instant credited. */
  untilMs: number;
  /** Whole seconds from the start to `untilMs`. */
  seconds: number;
  minedUnits: bigint;
  /** Live seconds of the local day that contains `untilMs`, this session included. */
  currentDailyDuration: number;
  /** That local day (the caller keeps it as the state's `day`). */
  day: LocalDay;
}

/** Whichever comes first: the daily cap or the rate boundary (the boundary wins a tie: its rate is due). */
export function scheduledEnd(
  s: Pick<AccrualState, 'capAtMs' | 'boundaryAtMs'>,
): { at: number; reason: EndReason } | null {
  if (s.boundaryAtMs != null && (s.capAtMs == null || s.boundaryAtMs <= s.capAtMs)) {
    return { at: s.boundaryAtMs, reason: 'rate-increased' };
  }
  return s.capAtMs != null ? { at: s.capAtMs, reason: 'daily-limit' } : null;
}

/**
 * The last instant the session is credited for at `nowMs`: never past the drop, the cap or the boundary.
 * Runs for every update of every live session, so it allocates nothing.
 */
export function creditedUntil(s: AccrualState, nowMs: number): number {
  let until = nowMs;
  if (s.disconnectedAtMs != null && s.disconnectedAtMs < until) until = s.disconnectedAtMs;
  if (s.capAtMs != null && s.capAtMs < until) until = s.capAtMs;
  if (s.boundaryAtMs != null && s.boundaryAtMs < until) until = s.boundaryAtMs;
  return until > s.startedAtMs ? until : s.startedAtMs;
}

/**
 * Base units mined from the start to `untilMs`: rate × live ms / 3,600,000, floored once. From the whole
 * milliseconds, not seconds: (ms / 1000) * 1000 is not always ms again in floating point (4076 ms gave
 * 4075.999…, a unit short at 250,000 an hour).
 */
export function minedUntil(
  s: Pick<AccrualState, 'startedAtMs' | 'rateUnitsPerHour'>,
  untilMs: number,
): bigint {
  const ms = untilMs - s.startedAtMs;
  return ms > 0 ? (s.rateUnitsPerHour * BigInt(ms)) / MS_PER_HOUR : 0n;
}

/** Live seconds of the local day containing `atMs` (and that day, computed again only when `at` left it). */
export function dailyDurationAt(s: AccrualState, atMs: number): { seconds: number; day: LocalDay } {
  const day = dayAt(s, atMs);
  return { seconds: dailySeconds(s, day, atMs), day };
}

/** The local day containing `atMs`: the state's cached one while `atMs` is in it (no zone arithmetic). */
function dayAt(s: AccrualState, atMs: number): LocalDay {
  return s.day && atMs >= s.day.startMs && atMs < s.day.endMs ? s.day : localDay(atMs, s.timezone);
}

/** Live seconds of `day` up to `atMs`: what was mined in it before the session, and the session's part in it. */
function dailySeconds(s: AccrualState, day: LocalDay, atMs: number): number {
  const before = s.startedAtMs >= day.startMs ? s.usedBeforeMs : 0;
  const from = s.startedAtMs > day.startMs ? s.startedAtMs : day.startMs;
  const to = atMs < day.endMs ? atMs : day.endMs;
  return Math.floor((before + (to > from ? to - from : 0)) / 1000);
}

/** The session's figures at `nowMs`, counted up to the last instant it is credited for. */
export function accrue(s: AccrualState, nowMs: number): Accrual {
  const untilMs = creditedUntil(s, nowMs);
  const day = dayAt(s, untilMs);
  return {
    untilMs,
    seconds: Math.floor((untilMs - s.startedAtMs) / 1000),
    minedUnits: minedUntil(s, untilMs),
    currentDailyDuration: dailySeconds(s, day, untilMs),
    day,
  };
}

/** Where a session ended at `atMs` stops, and what it is credited (never past its cap, boundary or drop). */
export function settle(s: AccrualState, atMs: number): { endedAtMs: number; minedUnits: bigint } {
  const endedAtMs = Math.max(s.startedAtMs, Math.min(creditedUntil(s, atMs), atMs));
  return { endedAtMs, minedUnits: minedUntil(s, endedAtMs) };
}
