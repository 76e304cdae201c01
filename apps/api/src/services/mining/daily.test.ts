import { describe, expect, it } from 'vitest';
import { dailyCapAt, localDay, usedInDay } from './daily.ts';

const H = 3_600_000;
const ms = (iso: string) => new Date(iso).getTime();

describe('local days', () => {
  it('start at local midnight in the streamer zone', () => {
    const day = localDay(ms('2026-06-10T03:30:00Z'), 'America/New_York');
    expect(day.date).toBe('2026-06-09');
    expect(day.startMs).toBe(ms('2026-06-09T04:00:00Z'));
    expect(day.endMs - day.startMs).toBe(24 * H);
  });

  it('are 23 hours on the spring DST day and 25 on the autumn one', () => {
    const spring = localDay(ms('2026-03-29T12:00:00Z'), 'Europe/Berlin');
    expect(spring.endMs - spring.startMs).toBe(23 * H);
    const autumn = localDay(ms('2026-10-25T12:00:00Z'), 'Europe/Berlin');
    expect(autumn.endMs - autumn.startMs).toBe(25 * H);
  });

  it('refuse an unknown zone', () => {
    expect(() => localDay(0, 'Mars/Olympus')).toThrow(RangeError);
  });
});

describe('usage inside a day', () => {
  it('clips a session crossing midnight to each day', () => {
    const tokyo = 'Asia/Tokyo';
    const session = { startMs: ms('2026-01-01T14:00:00Z'), endMs: ms('2026-01-01T17:00:00Z') }; // 23:00-02:00 JST
    const first = localDay(session.startMs, tokyo);
    const second = localDay(session.endMs, tokyo);
    expect(usedInDay([session], first)).toBe(1 * H);
    expect(usedInDay([session], second)).toBe(2 * H);
  });
});

describe('when the daily cap is reached', () => {
  const limit = 8 * H;
  it('is the start plus what is left today', () => {
    expect(dailyCapAt(ms('2026-01-05T08:00:00Z'), 2 * H, limit, 'UTC')).toBe(ms('2026-01-05T14:00:00Z'));
  });

  it('restarts from zero at local midnight when the session crosses it', () => {
    // 20:00 UTC with 2 h used: 6 h left, but at midnight the new day starts with its own 8 h.
    expect(dailyCapAt(ms('2026-01-05T20:00:00Z'), 2 * H, limit, 'UTC')).toBe(ms('2026-01-06T08:00:00Z'));
  });

  it('is now when nothing is left', () => {
    expect(dailyCapAt(1000, limit, limit, 'UTC')).toBe(1000);
  });

  it('follows a 23-hour DST day', () => {
    // Berlin, 29 March 2026: the day starts 23:00 UTC on the 28th and ends 22:00 UTC on the 29th.
    const start = ms('2026-03-29T18:00:00Z');
    expect(dailyCapAt(start, 7 * H, limit, 'Europe/Berlin')).toBe(ms('2026-03-29T19:00:00Z'));
    expect(dailyCapAt(ms('2026-03-29T21:00:00Z'), 2 * H, limit, 'Europe/Berlin')).toBe(
      ms('2026-03-30T06:00:00Z'),
    );
  });
});
