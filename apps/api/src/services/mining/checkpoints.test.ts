// What the engine writes of live sessions and when: docs/engine.md#a-sessions-life (checkpoints batched,
// one statement at a time) and docs/operations.md#faults (kept while the database is away, written when back).
import { SERVER_MESSAGES } from '@strm/shared';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  type EngineFixture,
  engineFixture,
  SECOND,
  START,
  settled,
  startLive,
} from '../../../test/support/mining-engine.ts';
import { CHECKPOINT_BATCH_MS, flushWhenDue, queueCheckpoint } from './checkpoints.ts';
import { endSession } from './ending.ts';
import { checkpointOf, type LiveSession } from './session.ts';
import type { Checkpoint } from './store.ts';

afterEach(() => {
  vi.restoreAllMocks();
});

/** The session's checkpoint `ms` after the start. */
const at = (s: LiveSession, ms: number): Checkpoint => checkpointOf(s, START + ms);

/** Moves the clock, then writes what is owed if it is due (what each tick does after its scan). */
async function flushAfter(f: EngineFixture, ms: number): Promise<void> {
  f.clock.advance(ms);
  flushWhenDue(f.ctx);
  await settled(f.ctx);
}

const written = (f: EngineFixture) =>
  f.store
    .callsOf('checkpoint')
    .map(([batch]) => (batch as Checkpoint[]).map((c) => c.accruedUntil.getTime() - START));

describe('checkpoints', () => {
  it('queued together go in one statement, the latest of each session', async () => {
    const f = engineFixture();
    const a = await startLive(f, 'a');
    const b = await startLive(f, 'b');
    queueCheckpoint(f.ctx, at(a, 10 * SECOND));
    queueCheckpoint(f.ctx, at(b, 10 * SECOND));
    queueCheckpoint(f.ctx, at(a, 20 * SECOND));
    await flushAfter(f, 20 * SECOND);
    expect(written(f)).toEqual([[20 * SECOND, 10 * SECOND]]);
    expect(f.store.rows.get(a.id)).toMatchObject({
      accruedUntil: new Date(START + 20 * SECOND),
      minedUnits: 55_555n,
    });
    expect(f.store.rows.get(b.id)?.accruedUntil).toEqual(new Date(START + 10 * SECOND));
    expect(f.ctx.counters).toMatchObject({ checkpointStatements: 1, checkpointRows: 2 });
  });

  it('start at most once a second: those due meanwhile wait for the next statement', async () => {
    const f = engineFixture();
    const a = await startLive(f, 'a');
    queueCheckpoint(f.ctx, at(a, 0));
    await flushAfter(f, 0);
    queueCheckpoint(f.ctx, at(a, 1));
    await flushAfter(f, CHECKPOINT_BATCH_MS - 1);
    expect(written(f)).toEqual([[0]]);
    await flushAfter(f, 1);
    expect(written(f)).toEqual([[0], [1]]);
  });

  it('go one statement at a time', async () => {
    const f = engineFixture();
    const a = await startLive(f, 'a');
    let answer!: () => void;
    const real = f.store.checkpoint.bind(f.store);
    f.store.checkpoint = async (batch) => {
      const lost = real(batch);
      await new Promise<void>((resolve) => {
        answer = resolve;
      });
      return lost;
    };
    queueCheckpoint(f.ctx, at(a, 0));
    flushWhenDue(f.ctx);
    f.clock.advance(5 * SECOND);
    queueCheckpoint(f.ctx, at(a, 5 * SECOND));
    flushWhenDue(f.ctx);
    expect(written(f)).toEqual([[0]]);
    answer();
    await f.ctx.writes.flushing;
    flushWhenDue(f.ctx);
    expect(written(f)).toEqual([[0], [5 * SECOND]]);
    answer();
    await settled(f.ctx);
  });

  it('that failed are kept and tried again after 1 s, then 2, 4, and every 5 s, until written', async () => {
    const f = engineFixture();
    const a = await startLive(f, 'a');
    f.store.failing.add('checkpoint');
    queueCheckpoint(f.ctx, at(a, 0));
    const tries: number[] = [];
    for (let t = 0; t <= 20 * SECOND; t += 100) {
      const before = f.store.callsOf('checkpoint').length;
      await flushAfter(f, t === 0 ? 0 : 100);
      if (f.store.callsOf('checkpoint').length > before) tries.push(t);
    }
    expect(tries).toEqual([0, 1000, 3000, 7000, 12_000, 17_000]);
    f.store.failing.clear();
    await flushAfter(f, 5 * SECOND);
    expect(f.store.rows.get(a.id)?.accruedUntil).toEqual(new Date(START));
    expect(f.ctx.writes.checkpoints.size).toBe(0);
    expect(f.ctx.writes.failures).toBe(0);
  });

  it('that failed give way to a newer checkpoint of the session queued while they were written', async () => {
    const f = engineFixture();
    const a = await startLive(f, 'a');
    f.store.checkpoint = async () => {
      queueCheckpoint(f.ctx, at(a, 7 * SECOND));
      throw new Error('database away');
    };
    queueCheckpoint(f.ctx, at(a, 3 * SECOND));
    await flushAfter(f, 10 * SECOND);
    expect(f.ctx.writes.checkpoints.get(a.id)?.accruedUntil).toEqual(new Date(START + 7 * SECOND));
  });

  it("refused because another instance owns the session: it is dropped here, and its wallet isn't told", async () => {
    const f = engineFixture();
    const a = await startLive(f, 'a');
    f.store.rows.get(a.id)!.ownerInstance = 'instance-there';
    queueCheckpoint(f.ctx, at(a, SECOND));
    await flushAfter(f, SECOND);
    expect(f.ctx.sessions.has('a')).toBe(false);
    expect(a.running).toBe(false);
    expect(f.events.told).toEqual([]);
  });
});

describe('closes the database refused', () => {
  it('are kept, the wallet told its credit is late, and written when the database is back, credited once', async () => {
    const f = engineFixture();
    const a = await startLive(f, 'a');
    f.store.failing.add('close');
    f.clock.advance(36 * SECOND);
    await endSession(f.ctx, 'a', a.id, f.clock.ms, 'stopped');
    expect(f.events.told).toEqual([{ wallet: 'a', kind: 'notice', payload: SERVER_MESSAGES.creditDelayed }]);
    await flushAfter(f, 0);
    await flushAfter(f, SECOND);
    expect(f.store.callsOf('close')).toHaveLength(3);
    expect(f.store.rows.get(a.id)?.endedAt).toBeNull();
    f.store.failing.clear();
    await flushAfter(f, 2 * SECOND);
    expect(f.store.rows.get(a.id)).toMatchObject({
      endedAt: new Date(START + 36 * SECOND),
      minedUnits: 100_000n,
    });
    expect(f.store.pending.get('a')).toBe(100_000n);
    await flushAfter(f, 10 * SECOND);
    expect(f.store.callsOf('close')).toHaveLength(4);
    expect(f.events.told.filter((t) => t.kind === 'stopped')).toEqual([
      {
        wallet: 'a',
        kind: 'stopped',
        payload: { duration: 36, amountMined: 0.1, pendingReward: 0.1, reason: 'stopped' },
      },
    ]);
  });

  it('are written after the checkpoints owed, without waiting out the one-a-second batching', async () => {
    const f = engineFixture();
    const a = await startLive(f, 'a');
    const b = await startLive(f, 'b');
    queueCheckpoint(f.ctx, checkpointOf(b, f.clock.ms));
    await flushAfter(f, 0);
    f.store.failing.add('close');
    await endSession(f.ctx, 'a', a.id, f.clock.ms, 'stopped');
    f.store.failing.clear();
    queueCheckpoint(f.ctx, checkpointOf(b, f.clock.ms + 10));
    await flushAfter(f, 10);
    expect(f.store.calls.map((c) => c.method).slice(-2)).toEqual(['checkpoint', 'close']);
    expect(f.store.rows.get(a.id)?.endReason).toBe('stopped');
    expect(f.ctx.writes.closes.size).toBe(0);
  });
});
