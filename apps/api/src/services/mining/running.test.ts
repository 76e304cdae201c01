// Running the engine and stopping it: docs/engine.md#a-sessions-life (on start-up, sessions left open are
// taken over or closed at their last checkpoint), docs/operations.md#stop-and-restart (a last checkpoint of
// every session on stop) and docs/operations.md#several-instances (released for the instance that takes them).
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  type EngineFixture,
  engineFixture,
  ME,
  SECOND,
  START,
  startLive,
} from '../../../test/support/mining-engine.ts';
import { flushWhenDue, queueCheckpoint } from './checkpoints.ts';
import { EngineLoops } from './running.ts';
import { checkpointOf } from './session.ts';

const TICK_MS = 100;
const SWEEP_MS = 1000;

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'setTimeout', 'clearTimeout'] });
});

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

/** Lets `ms` pass on the engine's clock and its timers together, a tick at a time. */
async function elapse(f: EngineFixture, ms: number): Promise<void> {
  for (let t = 0; t < ms; t += TICK_MS) {
    f.clock.advance(TICK_MS);
    await vi.advanceTimersByTimeAsync(TICK_MS);
  }
}

/** A session another instance left (its lease ran out a minute ago), last checkpointed 2 minutes ago. */
function leftByDeadInstance(f: EngineFixture, wallet: string) {
  f.store.leases.set('instance-there', START - 60 * SECOND);
  return f.store.seed({
    wallet,
    startedAt: new Date(START - 600 * SECOND),
    accruedUntil: new Date(START - 120 * SECOND),
    rateUnitsPerHour: 10_000_000n,
    ownerInstance: 'instance-there',
  });
}

const updates = (f: EngineFixture) => f.events.told.filter((t) => t.kind === 'update');

describe('running', () => {
  it('first takes over the sessions of wallets connected here, then sends their updates on the tick', async () => {
    const f = engineFixture();
    const row = leftByDeadInstance(f, 'alice');
    f.ctx.connections.set('alice', 1);
    f.ctx.idle.add('alice');
    const loops = new EngineLoops(f.ctx);
    expect(await loops.run(TICK_MS, SWEEP_MS)).toBe(0);
    expect(f.store.rows.get(row.id)?.ownerInstance).toBe(ME);
    await elapse(f, 10 * SECOND);
    expect(updates(f).map((t) => (t.payload as { duration: number }).duration)).toEqual([600, 605, 610]);
    await loops.stop();
  });

  it('answers how many sessions its first sweep closed at their last checkpoint', async () => {
    const f = engineFixture({ options: { gracePeriodMs: 0 } });
    const row = leftByDeadInstance(f, 'bob');
    const loops = new EngineLoops(f.ctx);
    expect(await loops.run(TICK_MS, SWEEP_MS)).toBe(1);
    expect(f.store.rows.get(row.id)?.endedAt).toEqual(new Date(START - 120 * SECOND));
    await loops.stop();
  });

  it('sweeps again every second: a session nobody took is closed once this instance has run for the grace period', async () => {
    const f = engineFixture();
    const row = leftByDeadInstance(f, 'bob');
    const loops = new EngineLoops(f.ctx);
    expect(await loops.run(TICK_MS, SWEEP_MS)).toBe(0);
    await elapse(f, 29 * SECOND);
    expect(f.store.rows.get(row.id)?.endedAt).toBeNull();
    await elapse(f, 2 * SECOND);
    expect(f.store.rows.get(row.id)?.endReason).toBe('server-restart');
    await loops.stop();
  });
});

describe('stopping', () => {
  it('writes a last checkpoint of every live session, releases them, and sends nothing after', async () => {
    const f = engineFixture();
    const a = await startLive(f, 'a');
    const b = await startLive(f, 'b');
    const loops = new EngineLoops(f.ctx);
    await loops.run(TICK_MS, SWEEP_MS);
    await elapse(f, 7 * SECOND);
    await loops.stop();
    for (const s of [a, b]) {
      expect(f.store.rows.get(s.id)).toMatchObject({
        accruedUntil: new Date(START + 7 * SECOND),
        minedUnits: 19_444n,
        ownerInstance: null,
        endedAt: null,
      });
    }
    expect(f.ctx.sessions.size).toBe(0);
    // Neither the tick nor the sweep is left to run.
    expect(vi.getTimerCount()).toBe(0);
    const told = f.events.told.length;
    const sweeps = f.store.callsOf('adopt').length;
    await elapse(f, 10 * SECOND);
    expect(f.events.told).toHaveLength(told);
    expect(f.store.callsOf('adopt')).toHaveLength(sweeps);
  });

  it('lets a checkpoint being written finish before it writes the last one: one statement at a time', async () => {
    const f = engineFixture();
    const a = await startLive(f, 'a');
    const loops = new EngineLoops(f.ctx);
    await loops.run(TICK_MS, SWEEP_MS);
    let answer!: () => void;
    let writing = 0;
    const together: number[] = [];
    const real = f.store.checkpoint.bind(f.store);
    f.store.checkpoint = async (batch) => {
      together.push(++writing);
      if (batch[0]?.accruedUntil.getTime() === START + SECOND) {
        await new Promise<void>((resolve) => {
          answer = resolve;
        });
      }
      const lost = await real(batch);
      writing--;
      return lost;
    };
    queueCheckpoint(f.ctx, checkpointOf(a, START + SECOND));
    flushWhenDue(f.ctx);
    f.clock.advance(2 * SECOND);
    const stopped = loops.stop();
    await vi.advanceTimersByTimeAsync(0);
    answer();
    await stopped;
    expect(together).toEqual([1, 1]);
    expect(f.store.rows.get(a.id)?.accruedUntil).toEqual(new Date(START + 2 * SECOND));
  });
});
