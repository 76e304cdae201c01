// What one wake-up of the engine does with the work due: docs/engine.md#a-sessions-life (updates every
// interval, ends at the 10-day boundary, the daily cap and after the grace period, checkpoints).
import { SERVER_MESSAGES } from '@strm/shared';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  DAY,
  type EngineFixture,
  engineFixture,
  HOUR,
  SECOND,
  START,
  settled,
  startLive,
} from '../../../test/support/mining-engine.ts';
import { SocketCounter } from './sockets.ts';
import { tick } from './tick.ts';

afterEach(() => {
  vi.restoreAllMocks();
});

/** Moves the clock and wakes the engine once, then waits for the database work it started. */
async function after(f: EngineFixture, ms: number): Promise<void> {
  f.clock.advance(ms);
  tick(f.ctx);
  await settled(f.ctx);
}

const told = (f: EngineFixture, kind: string) => f.events.told.filter((t) => t.kind === kind);

describe('updates', () => {
  it('go to each live wallet every interval with what it has mined since its start', async () => {
    const f = engineFixture();
    await startLive(f, 'alice');
    await startLive(f, 'bob');
    await after(f, 4 * SECOND);
    expect(told(f, 'update')).toEqual([]);
    await after(f, SECOND);
    expect(told(f, 'update')).toEqual([
      {
        wallet: 'alice',
        kind: 'update',
        payload: {
          duration: 5,
          minedAmount: 0.013888,
          miningRate: 10,
          platform: 'demo',
          currentDailyDuration: 5,
        },
      },
      expect.objectContaining({ wallet: 'bob' }),
    ]);
    await after(f, 5 * SECOND);
    expect(told(f, 'update').map((t) => [t.wallet, (t.payload as { duration: number }).duration])).toEqual([
      ['alice', 5],
      ['bob', 5],
      ['alice', 10],
      ['bob', 10],
    ]);
  });

  it('after a stalled loop, go once and then an interval from now, not once per interval missed', async () => {
    const f = engineFixture();
    await startLive(f, 'alice');
    await after(f, 17 * SECOND);
    expect(told(f, 'update').map((t) => (t.payload as { duration: number }).duration)).toEqual([17]);
    await after(f, 4 * SECOND);
    expect(told(f, 'update')).toHaveLength(1);
    await after(f, SECOND);
    expect(told(f, 'update').map((t) => (t.payload as { duration: number }).duration)).toEqual([17, 22]);
  });

  it("go to the wallet's outlet while it is open, and to a new one once it closed", async () => {
    const f = engineFixture();
    const outlets: { open: boolean; got: number[] }[] = [];
    f.events.outlet = () => {
      const outlet = {
        open: true,
        got: [] as number[],
        update: (x: { duration: number }) => outlet.got.push(x.duration),
      };
      outlets.push(outlet);
      return outlet;
    };
    await startLive(f, 'alice');
    await after(f, 5 * SECOND);
    await after(f, 5 * SECOND);
    outlets[0]!.open = false;
    await after(f, 5 * SECOND);
    expect(outlets.map((o) => o.got)).toEqual([[5, 10], [15]]);
    expect(told(f, 'update')).toEqual([]);
  });

  it('stop while the wallet has no socket, and for a session no longer run here', async () => {
    const f = engineFixture();
    await startLive(f, 'away', { connected: false });
    const gone = await startLive(f, 'gone');
    f.ctx.remove(gone);
    await after(f, 10 * SECOND);
    expect(told(f, 'update')).toEqual([]);
  });
});

describe('a session ends by itself', () => {
  it('at its 10-day boundary, credited at the old rate up to it, and told the rate due now', async () => {
    // Activated 9 days 23 hours before the start: the rate doubles an hour in.
    const f = engineFixture({ activatedDaysAgo: 10 - 1 / 24 });
    const s = await startLive(f, 'alice');
    await after(f, HOUR + 30 * 60 * SECOND);
    expect(f.ctx.sessions.has('alice')).toBe(false);
    const row = f.store.rows.get(s.id)!;
    expect(row.endedAt).toEqual(new Date(START + HOUR));
    expect(row.endReason).toBe('rate-increased');
    expect(row.minedUnits).toBe(10_000_000n);
    expect(told(f, 'stopped')).toEqual([
      {
        wallet: 'alice',
        kind: 'stopped',
        payload: { duration: 3600, amountMined: 10, pendingReward: 10, reason: 'rate-increased' },
      },
    ]);
    expect(told(f, 'rate-increased')[0]?.payload).toEqual({
      status: 'success',
      miningRate: 20,
      nextRateIncrease: new Date(START + HOUR + 10 * DAY).toISOString(),
    });
  });

  it('at the daily cap, told the day is used up', async () => {
    const f = engineFixture();
    const s = await startLive(f, 'alice', { usedBeforeMs: 7 * HOUR });
    await after(f, HOUR - SECOND);
    expect(f.ctx.sessions.has('alice')).toBe(true);
    await after(f, 2 * HOUR);
    expect(f.store.rows.get(s.id)).toMatchObject({
      endedAt: new Date(START + HOUR),
      endReason: 'daily-limit',
      minedUnits: 10_000_000n,
    });
    expect(told(f, 'daily-limit')).toEqual([{ wallet: 'alice', kind: 'daily-limit', payload: 8 * 3600 }]);
    expect(told(f, 'stopped')[0]?.payload).toMatchObject({ reason: 'daily-limit', amountMined: 10 });
  });

  it('once its last socket has been gone for the grace period, credited up to the drop', async () => {
    const f = engineFixture();
    const s = await startLive(f, 'alice');
    const sockets = new SocketCounter(f.ctx);
    await after(f, 36 * SECOND);
    sockets.disconnected('alice');
    await after(f, 30 * SECOND - 1);
    expect(f.ctx.sessions.has('alice')).toBe(true);
    await after(f, 1);
    expect(f.store.rows.get(s.id)).toMatchObject({
      endedAt: new Date(START + 36 * SECOND),
      endReason: 'disconnected',
      minedUnits: 100_000n,
    });
    expect(told(f, 'stopped')[0]?.payload).toMatchObject({ reason: 'disconnected', duration: 36 });
  });

  it('not when its socket came back within the grace period', async () => {
    const f = engineFixture();
    await startLive(f, 'alice');
    const sockets = new SocketCounter(f.ctx);
    sockets.disconnected('alice');
    await after(f, 10 * SECOND);
    f.ctx.connections.set('alice', 1);
    f.ctx.sessions.get('alice')!.disconnectedAtMs = null;
    await after(f, 30 * SECOND);
    expect(f.ctx.sessions.has('alice')).toBe(true);
    expect(told(f, 'stopped')).toEqual([]);
  });

  it('is handed over 5 s later when handing it to the instance holding its socket failed', async () => {
    const f = engineFixture();
    const s = await startLive(f, 'alice');
    new SocketCounter(f.ctx).disconnected('alice');
    f.events.elsewhere.add('alice');
    f.store.failing.add('checkpoint');
    await after(f, 30 * SECOND);
    expect(f.store.rows.get(s.id)?.ownerInstance).not.toBeNull();
    f.store.failing.clear();
    await after(f, 5 * SECOND);
    expect(f.store.rows.get(s.id)).toMatchObject({ ownerInstance: null, endedAt: null });
    expect(f.ctx.sessions.has('alice')).toBe(false);
  });
});

describe('checkpoints', () => {
  it("write each live session's accrual once per interval", async () => {
    const f = engineFixture();
    const s = await startLive(f, 'alice');
    await after(f, 59 * SECOND);
    expect(f.store.callsOf('checkpoint')).toEqual([]);
    await after(f, SECOND);
    expect(f.store.rows.get(s.id)).toMatchObject({
      accruedUntil: new Date(START + 60 * SECOND),
      minedUnits: 166_666n,
    });
    await after(f, 59 * SECOND);
    expect(f.store.callsOf('checkpoint')).toHaveLength(1);
    await after(f, SECOND);
    expect(f.store.rows.get(s.id)?.accruedUntil).toEqual(new Date(START + 120 * SECOND));
  });

  it("also check the session's stake again: one gone ends it at the last moment it was confirmed", async () => {
    const f = engineFixture();
    const s = await startLive(f, 'alice');
    await after(f, 60 * SECOND);
    f.records.records.set('alice', null);
    await after(f, 59 * SECOND);
    expect(f.ctx.sessions.has('alice')).toBe(true);
    await after(f, SECOND);
    expect(f.store.rows.get(s.id)).toMatchObject({
      endedAt: new Date(START + 60 * SECOND),
      endReason: 'tier-deactivated',
      minedUnits: 166_666n,
    });
    expect(told(f, 'notice')).toEqual([
      { wallet: 'alice', kind: 'notice', payload: SERVER_MESSAGES.demoNoTier },
    ]);
  });
});
