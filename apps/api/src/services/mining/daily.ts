// The daily cap: live seconds per calendar day in the streamer's time zone. A local day is 23, 24 or 25
// hours long (DST); a session crossing local midnight counts on both days. Luxon does the zone arithmetic.
import { DateTime } from 'luxon';

export interface LocalDay {
  /** yyyy-mm-dd in the zone. */
  date: string;
  startMs: number;
  endMs: number;
}

export function localDay(atMs: number, timezone: string): LocalDay {
  const at = DateTime.fromMillis(atMs, { zone: timezone });
  if (!at.isValid) throw new RangeError(`Unknown time zone: ${timezone}`);
  const start = at.startOf('day');
  return {
    date: start.toISODate() ?? '',
    startMs: start.toMillis(),
    endMs: start.plus({ days: 1 }).toMillis(),
  };
}

export interface Interval {
  startMs: number;
  endMs: number;
}

/** Milliseconds of the intervals that fall inside the day. */
export function usedInDay(intervals: Iterable<Interval>, day: Pick<LocalDay, 'startMs' | 'endMs'>): number {
  let used = 0;
  for (const { startMs, endMs } of intervals) {
    const from = Math.max(startMs, day.startMs);
    const to = Math.min(endMs, day.endMs);
    if (to > from) used += to - from;
  }
  return used;
}

/**
 * When a session starting at `startMs` reaches the daily limit, given `usedTodayMs` already mined in the
 * start's local day. Past local midnight the new day starts from zero (this session is the only open one).
 * Returns null when the limit can never be reached (a limit of a whole day or more).
 */
export function dailyCapAt(
  startMs: number,
  usedTodayMs: number,
  limitMs: number,
  timezone: string,
): number | null {
  let day = localDay(startMs, timezone);
  let from = startMs;
  let remaining = limitMs - usedTodayMs;
  for (let i = 0; i < 3; i++) {
    if (remaining <= 0) return from;
    if (from + remaining <= day.endMs) return from + remaining;
    from = day.endMs;
    day = localDay(from, timezone);
    remaining = limitMs;
  }
  return null;
}
