// Sessions across instances: docs/operations.md#several-instances (ownership, take-over, sessions nobody
// takes closed at their last checkpoint) and docs/engine.md#where-requests-run.
import { SERVER_MESSAGES } from '@strm/shared';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  type EngineFixture,
  engineFixture,
  ME,
  SECOND,
  START,
  settled,
  startLive,
} from '../../../test/support/mining-engine.ts';
import { adoptFor, graceExpired, sweep } from './ownership.ts';
import { SocketCounter } from './sockets.ts';
import { tick } from './tick.ts';

afterEach(() => {
  vi.restoreAllMocks();
});

const MINUTE = 60 * SECOND;
const THERE = 'instance-there';

/** A session `THERE` started 10 minutes ago and last checkpointed 2 minutes ago; `THERE`'s lease ends at `leaseUntil`. */
function leftThere(f: EngineFixture, wallet: string, leaseUntil = START - MINUTE) {
  f.store.leases.set(THERE, leaseUntil);
  return f.store.seed({
    wallet,
    startedAt: new Date(START - 10 * MINUTE),
    accruedUntil: new Date(START - 2 * MINUTE),
    rateUnitsPerHour: 10_000_000n,
    ownerInstance: THERE,
  });
}

/** A socket of the wallet connected here (no session here yet). */
function connectedHere(f: EngineFixture, wallet: string) {
  f.ctx.connections.set(wallet, 1);
  f.ctx.idle.add(wallet);
}

describe('the sweep', () => {
  it('re-takes a lapsed lease before it takes anything over, and leaves a held one alone', async () => {
    const f = engineFixture();
    const adoptsAtRenewal: number[] = [];
    const renew = f.lease.renew.bind(f.lease);
    f.lease.renew = async () => {
      adoptsAtRenewal.push(f.store.callsOf('adopt').length);
      await renew();
    };
    await sweep(f.ctx);
    expect(adoptsAtRenewal).toEqual([]);
    f.lease.held = false;
    await sweep(f.ctx);
    expect(adoptsAtRenewal).toEqual([1]);
    expect(f.store.callsOf('adopt')).toHaveLength(2);
  });

  it("takes over a dead instance's session whose wallet is connected here, and runs it on from its start", async () => {
    const f = engineFixture();
    const row = leftThere(f, 'alice');
    connectedHere(f, 'alice');
    await sweep(f.ctx);
    expect(f.store.rows.get(row.id)?.ownerInstance).toBe(ME);
    expect(f.ctx.sessions.get('alice')).toMatchObject({ id: row.id, startedAtMs: START - 10 * MINUTE });
    tick(f.ctx);
    // The 10 minutes since its start are credited, the outage included.
    expect(f.events.told).toEqual([
      expect.objectContaining({
        wallet: 'alice',
        kind: 'update',
        payload: expect.objectContaining({ duration: 600, minedAmount: 1.666666 }),
      }),
    ]);
  });

  it('releases a session it could not resume (its streamer is gone), for the rule below to close', async () => {
    const f = engineFixture();
    const row = leftThere(f, 'alice');
    connectedHere(f, 'alice');
    f.gone.add('alice');
    await sweep(f.ctx);
    expect(f.store.rows.get(row.id)?.ownerInstance).toBeNull();
    expect(f.ctx.sessions.has('alice')).toBe(false);
  });

  it('ends a taken-over session whose stake is gone at its last checkpoint', async () => {
    const f = engineFixture();
    const row = leftThere(f, 'alice');
    connectedHere(f, 'alice');
    f.records.records.set('alice', null);
    await sweep(f.ctx);
    await settled(f.ctx);
    expect(f.store.rows.get(row.id)).toMatchObject({
      endedAt: new Date(START - 2 * MINUTE),
      endReason: 'tier-deactivated',
      minedUnits: 1_333_333n,
    });
    expect(f.events.told.map((t) => [t.kind, t.payload])).toEqual([
      ['notice', SERVER_MESSAGES.demoNoTier],
      [
        'stopped',
        { duration: 480, amountMined: 1.333333, pendingReward: 1.333333, reason: 'tier-deactivated' },
      ],
    ]);
    expect(f.ctx.sessions.has('alice')).toBe(false);
  });

  it('closes at its last checkpoint a session nobody took, once this instance has run for the grace period', async () => {
    const f = engineFixture();
    const row = leftThere(f, 'bob');
    f.ctx.runningSinceMs = START;
    expect(await sweep(f.ctx)).toBe(0);
    f.clock.advance(30 * SECOND - 1);
    expect(await sweep(f.ctx)).toBe(0);
    expect(f.store.rows.get(row.id)?.endedAt).toBeNull();
    f.clock.advance(1);
    expect(await sweep(f.ctx)).toBe(1);
    expect(f.store.rows.get(row.id)).toMatchObject({
      endedAt: new Date(START - 2 * MINUTE),
      endReason: 'server-restart',
      minedUnits: 1_333_333n,
    });
    expect(f.events.told).toEqual([
      {
        wallet: 'bob',
        kind: 'stopped',
        payload: { duration: 480, amountMined: 1.333333, pendingReward: 1.333333, reason: 'disconnected' },
      },
    ]);
    expect(await sweep(f.ctx)).toBe(0);
  });

  it('counts and tells nothing of a session taken over between the listing and its close', async () => {
    const f = engineFixture();
    const row = leftThere(f, 'bob');
    f.ctx.runningSinceMs = START - 10 * MINUTE;
    const orphans = f.store.orphans.bind(f.store);
    f.store.orphans = async (graceMs) => {
      const listed = await orphans(graceMs);
      f.store.rows.get(row.id)!.ownerInstance = 'instance-third';
      return listed;
    };
    expect(await sweep(f.ctx)).toBe(0);
    expect(f.store.rows.get(row.id)?.endedAt).toBeNull();
    expect(f.events.told).toEqual([]);
  });

  it('closes nothing while its lease may have lapsed (back from a database outage)', async () => {
    const f = engineFixture();
    const row = leftThere(f, 'bob');
    f.ctx.runningSinceMs = START - 10 * MINUTE;
    f.lease.mayCloseOrphans = false;
    expect(await sweep(f.ctx)).toBe(0);
    expect(f.store.callsOf('orphans')).toEqual([]);
    expect(f.store.rows.get(row.id)?.endedAt).toBeNull();
  });
});

describe('taking over', () => {
  it('looks only for wallets with no session here, running or starting', async () => {
    const f = engineFixture();
    await startLive(f, 'live');
    f.ctx.starting.add('starting');
    await adoptFor(f.ctx, ['live', 'starting', 'free']);
    expect(f.store.callsOf('adopt')).toEqual([[['free']]]);
  });
});

describe('a dropped session at the end of its grace period', () => {
  it("is checkpointed and handed to the instance holding its wallet's socket, without a word", async () => {
    const f = engineFixture();
    const s = await startLive(f, 'alice');
    f.clock.advance(36 * SECOND);
    new SocketCounter(f.ctx).disconnected('alice');
    f.events.elsewhere.add('alice');
    f.clock.advance(30 * SECOND);
    await graceExpired(f.ctx, s);
    expect(f.store.rows.get(s.id)).toMatchObject({
      ownerInstance: null,
      endedAt: null,
      accruedUntil: new Date(START + 66 * SECOND),
    });
    expect(f.ctx.sessions.has('alice')).toBe(false);
    expect(f.events.told).toEqual([]);
  });

  it('ends, credited up to the drop, when no instance holds its wallet', async () => {
    const f = engineFixture();
    const s = await startLive(f, 'alice');
    f.clock.advance(36 * SECOND);
    new SocketCounter(f.ctx).disconnected('alice');
    f.clock.advance(30 * SECOND);
    await graceExpired(f.ctx, s);
    expect(f.store.rows.get(s.id)).toMatchObject({
      endedAt: new Date(START + 36 * SECOND),
      endReason: 'disconnected',
    });
  });

  it('goes on when its socket came back meanwhile', async () => {
    const f = engineFixture();
    const s = await startLive(f, 'alice');
    const sockets = new SocketCounter(f.ctx);
    sockets.disconnected('alice');
    f.clock.advance(30 * SECOND);
    sockets.connected('alice');
    await graceExpired(f.ctx, s);
    expect(f.store.calls.map((c) => c.method)).toEqual(['open']);
    expect(f.ctx.sessions.get('alice')).toBe(s);
  });
});
