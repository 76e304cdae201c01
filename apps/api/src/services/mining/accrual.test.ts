import { describe, expect, it } from 'vitest';
import {
  type AccrualState,
  accrue,
  creditedUntil,
  dailyDurationAt,
  minedUntil,
  scheduledEnd,
  settle,
} from './accrual.ts';

const S = 1000;
const H = 3600 * S;
const ms = (iso: string) => new Date(iso).getTime();
/** 36,000,000,000 base units an hour: 10 a millisecond. */
const RATE = 36_000_000_000n;

function session(over: Partial<AccrualState> = {}): AccrualState {
  return {
    startedAtMs: ms('2026-01-05T10:00:00Z'),
    rateUnitsPerHour: RATE,
    usedBeforeMs: 0,
    timezone: 'UTC',
    capAtMs: null,
    boundaryAtMs: null,
    disconnectedAtMs: null,
    ...over,
  };
}

describe('what a live session has earned', () => {
  it('is its rate times the time since it started', () => {
    const s = session();
    const a = accrue(s, s.startedAtMs + 90 * S);
    expect(a.untilMs).toBe(s.startedAtMs + 90 * S);
    expect(a.seconds).toBe(90);
    expect(a.minedUnits).toBe(900_000_000n);
  });

  it('counts whole seconds of duration but credits every millisecond', () => {
    const s = session();
    const a = accrue(s, s.startedAtMs + 1500);
    expect(a.seconds).toBe(1);
    expect(a.minedUnits).toBe(15_000_000n);
  });

  it('stops at the drop of the last socket', () => {
    const s = session({ disconnectedAtMs: ms('2026-01-05T10:01:00Z') });
    expect(accrue(s, ms('2026-01-05T10:05:00Z')).seconds).toBe(60);
  });

  it('stops at the daily cap and at the 10-day boundary, whichever comes first', () => {
    const cap = ms('2026-01-05T11:00:00Z');
    const boundary = ms('2026-01-05T10:30:00Z');
    const later = ms('2026-01-05T12:00:00Z');
    expect(creditedUntil(session({ capAtMs: cap }), later)).toBe(cap);
    expect(creditedUntil(session({ capAtMs: cap, boundaryAtMs: boundary }), later)).toBe(boundary);
  });

  it('counts every whole millisecond, whatever floating point makes of it in seconds', () => {
    // 4.076 s × 1000 is 4075.999… in floating point: counted from seconds, a unit was lost.
    const s = session({ startedAtMs: 0, rateUnitsPerHour: 250_000n });
    expect(minedUntil(s, 4076)).toBe(283n);
    expect(accrue(s, 4076).minedUnits).toBe(283n);
  });

  it('is nothing for a moment before its start', () => {
    const s = session();
    const a = accrue(s, s.startedAtMs - 5 * S);
    expect(a.untilMs).toBe(s.startedAtMs);
    expect(a.minedUnits).toBe(0n);
  });
});

describe('how a live session ends by itself', () => {
  it('at the boundary when it comes before the cap or with it (its rate is due)', () => {
    expect(scheduledEnd({ capAtMs: 2000, boundaryAtMs: 1000 })).toEqual({
      at: 1000,
      reason: 'rate-increased',
    });
    expect(scheduledEnd({ capAtMs: 1000, boundaryAtMs: 1000 })).toEqual({
      at: 1000,
      reason: 'rate-increased',
    });
    expect(scheduledEnd({ capAtMs: 1000, boundaryAtMs: 2000 })).toEqual({ at: 1000, reason: 'daily-limit' });
    expect(scheduledEnd({ capAtMs: null, boundaryAtMs: null })).toBeNull();
  });

  it('is credited up to where it ends, never past its cap', () => {
    const s = session({ capAtMs: ms('2026-01-05T10:10:00Z') });
    expect(settle(s, ms('2026-01-05T10:05:00Z'))).toEqual({
      endedAtMs: ms('2026-01-05T10:05:00Z'),
      minedUnits: 3_000_000_000n,
    });
    expect(settle(s, ms('2026-01-05T11:00:00Z'))).toEqual({
      endedAtMs: ms('2026-01-05T10:10:00Z'),
      minedUnits: 6_000_000_000n,
    });
  });
});

describe("the day's live seconds", () => {
  it('add what was mined earlier in the day', () => {
    const s = session({ usedBeforeMs: 2 * H });
    expect(accrue(s, s.startedAtMs + 60 * S).currentDailyDuration).toBe(2 * 3600 + 60);
  });

  it('start again from zero past local midnight', () => {
    // 23:30 in Tokyo with 2 h used that day; an hour later it is 00:30 of the next local day.
    const s = session({
      startedAtMs: ms('2026-01-05T14:30:00Z'),
      usedBeforeMs: 2 * H,
      timezone: 'Asia/Tokyo',
    });
    const first = dailyDurationAt(s, ms('2026-01-05T14:50:00Z'));
    expect(first.seconds).toBe(2 * 3600 + 20 * 60);
    const next = dailyDurationAt({ ...s, day: first.day }, ms('2026-01-05T15:30:00Z'));
    expect(next.seconds).toBe(30 * 60);
    expect(next.day.date).toBe('2026-01-06');
  });

  it('reuse the local day given while the moment is inside it', () => {
    const s = session();
    const first = accrue(s, s.startedAtMs + S);
    expect(accrue({ ...s, day: first.day }, s.startedAtMs + 2 * S).day).toBe(first.day);
  });
});
