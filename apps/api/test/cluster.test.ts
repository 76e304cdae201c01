// Two real API processes on one PostgreSQL and one Redis (the machine's, REDIS_URL to override), as
// behind a load balancer: a wallet's events reach its sockets on either instance, and when one instance is
// SIGKILLed mid-stream its sessions go on at the other with the right totals, credited exactly once. A
// request on a live session (stop-stream, leave-room, increase-rate, mining-stats' live figures) that
// reaches the instance not running it is run by the one that does. A wallet's mining-updates skip Redis while
// all its tabs are on the instance running its session, and reach a tab that opens on the other.
import type { ChildProcess } from 'node:child_process';
import { freePort } from '@strm/testing';
import { io, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPrisma, type PrismaClient } from '../src/db/index.ts';
import {
  activatedWallet,
  processClient,
  request,
  selfTransfer,
  startTestChain,
  type TestChain,
  tokenUnits,
  waitFor,
} from './support/engine-harness.ts';
import { type RunningApi, startApiProcess } from './support/process.ts';
import { watchPublishes } from './support/redis-monitor.ts';
import { createTestDatabase, grantAccess } from './support/test-app.ts';

const JWT_SECRET = 'cluster-test-secret-cluster-test-secret';
const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const LEASE_MS = 2000;
const RATE_UNITS_PER_HOUR = 250_000n; // Tier 1 on day 0

let chain: TestChain;
let db: { url: string; drop(): Promise<void> };
let prisma: PrismaClient;
let env: Record<string, string>;
const running: RunningApi[] = [];
const sockets: Socket[] = [];

beforeAll(async () => {
  chain = await startTestChain();
  db = await createTestDatabase();
  prisma = createPrisma(db.url);
  env = {
    DATABASE_URL: db.url,
    REDIS_URL,
    // The test's local chain (its treasury pays; the demo platform is refused beside a treasury keypair).
    LOCAL_CHAIN_DIR: chain.dataDir,
    JWT_SECRET,
    DEMO_PLATFORM: 'on',
    MINING_UPDATE_INTERVAL_MS: '250',
    MINING_CHECKPOINT_INTERVAL_MS: '1000',
    INSTANCE_LEASE_MS: String(LEASE_MS),
    SESSION_SWEEP_MS: '200',
    SOCKET_GRACE_PERIOD_MS: '15000',
    // Every client connects from this machine.
    SOCKET_HANDSHAKES_PER_MINUTE: '100000',
  };
}, 180_000);
afterAll(async () => {
  for (const s of sockets) s.close();
  for (const api of running) if (api.child.exitCode === null) await api.stop();
  await prisma?.$disconnect();
  await db?.drop();
  await chain?.stop();
});

async function instance(): Promise<RunningApi> {
  const api = await startApiProcess({ ...env, PORT: String(await freePort()) });
  running.push(api);
  return api;
}

const { tokenFor, call } = processClient(JWT_SECRET);

async function connect(url: string, wallet: string): Promise<Socket> {
  const socket = io(url, {
    transports: ['websocket'],
    auth: { wallet, authToken: tokenFor(wallet) },
    reconnection: false,
  });
  sockets.push(socket);
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', () => resolve());
    socket.once('connect_error', reject);
  });
  return socket;
}

function nextEvent<T>(socket: Socket, event: string, timeoutMs = 15_000): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no ${event} within ${timeoutMs} ms`)), timeoutMs);
    socket.once(event, (payload: T) => {
      clearTimeout(timer);
      resolve(payload);
    });
  });
}

/** A wallet with Tier 1 on chain, its demo account live on every instance, streaming through `home`. */
async function streamer(home: RunningApi, instances: RunningApi[]) {
  const { keypair } = await activatedWallet(chain);
  const wallet = keypair.publicKey.toBase58();
  const username = `cl_${wallet.slice(0, 8).toLowerCase()}`;
  await grantAccess(prisma, wallet);
  await call(home.url, wallet, 'POST', '/dev/demo/account', { username });
  // The demo platform lives in each process's memory (Twitch or TikTok would answer every instance alike).
  for (const api of instances) await call(api.url, wallet, 'PUT', '/dev/demo/live', { live: true });
  const socket = await connect(home.url, wallet);
  const started = nextEvent<{ miningRate: number }>(socket, 'stream-started');
  // When the session started, as the client saw it: between its request and the answer.
  const startAsked = Date.now();
  socket.emit('start-stream', { platform: 'demo', wallet, username, tier: 'Tier 1' });
  await started;
  return { keypair, wallet, username, socket, startedWithin: [startAsked, Date.now()] as const };
}

const expectedUnits = (ms: number) => (RATE_UNITS_PER_HOUR * BigInt(ms)) / 3_600_000n;

describe('two API instances on one PostgreSQL and one Redis', () => {
  let a: RunningApi;
  let b: RunningApi;

  it('delivers a wallet’s events to its sockets on both instances', async () => {
    [a, b] = [await instance(), await instance()];
    const s = await streamer(a, [a, b]);
    // A second tab of the same wallet, connected to the other instance, hears the session run on A.
    const other = await connect(b.url, s.wallet);
    const update = await nextEvent<{ duration: number; platform: string }>(other, 'mining-update');
    expect(update.platform).toBe('demo');
    // And stop-stream from the tab on A reaches both tabs.
    const stoppedHere = nextEvent<{ amountMined: number }>(s.socket, 'stream-stopped');
    const stoppedThere = nextEvent<{ amountMined: number }>(other, 'stream-stopped');
    s.socket.emit('stop-stream', { platform: 'demo', wallet: s.wallet });
    const [here, there] = await Promise.all([stoppedHere, stoppedThere]);
    expect(there).toEqual(here);
    s.socket.close();
    other.close();
  }, 120_000);

  it('sends mining-updates straight to a wallet’s tab on its instance, and through Redis to a tab opened on the other', async () => {
    const publishes = await watchPublishes(REDIS_URL);
    try {
      const s = await streamer(a, [a, b]);
      let heard = 0;
      s.socket.on('mining-update', () => heard++);
      // Relayed through Redis, an update's SPUBLISH runs before its delivery on A (the adapter awaits it); so
      // once more updates were heard than Redis carried, some went straight to the tab.
      const relayed = () =>
        publishes.on(`#wallet:${s.wallet}#`).filter((m) => m.includes('"mining-update"')).length;
      let direct = false;
      for (let i = 0; i < 40 && !direct; i++) {
        await nextEvent(s.socket, 'mining-update');
        await publishes.caughtUp();
        direct = relayed() < heard;
      }
      expect(direct).toBe(true);

      // The wallet opens a tab on B (the load balancer sends it there): the session's updates reach it.
      const other = await connect(b.url, s.wallet);
      const update = await nextEvent<{ platform: string }>(other, 'mining-update');
      expect(update.platform).toBe('demo');
      await publishes.caughtUp();
      expect(relayed()).toBeGreaterThan(0);

      // The tab on A closes: once B has taken the session over (after the grace period, 15 s here), the tab
      // that moved there hears it go on.
      const before = await prisma.miningSession.findFirstOrThrow({
        where: { wallet: s.wallet, endedAt: null },
      });
      s.socket.close();
      const takenOver = async () => {
        for (let i = 0; i < 300; i++) {
          const row = await prisma.miningSession.findUniqueOrThrow({ where: { id: before.id } });
          if (row.ownerInstance && row.ownerInstance !== before.ownerInstance) return row;
          await new Promise((r) => setTimeout(r, 200));
        }
        throw new Error('the session was not taken over');
      };
      expect((await takenOver()).endedAt).toBeNull();
      await nextEvent(other, 'mining-update');
      const stopped = nextEvent(other, 'stream-stopped');
      other.emit('stop-stream', { platform: 'demo', wallet: s.wallet });
      await stopped;
      other.close();
    } finally {
      publishes.close();
    }
  }, 120_000);

  it('runs session requests sent to the instance that does not own the session on its owner', async () => {
    const s = await streamer(a, [a, b]);
    const onA = (await prisma.miningSession.findFirstOrThrow({ where: { wallet: s.wallet, endedAt: null } }))
      .ownerInstance;
    const other = await connect(b.url, s.wallet);
    await nextEvent(other, 'mining-update');

    // increase-rate before the 10-day boundary: the owner's refusal comes back to the tab that asked.
    const refused = nextEvent<{ message: string; event: string }>(other, 'error');
    other.emit('increase-rate', { platform: 'demo', wallet: s.wallet });
    expect(await refused).toEqual({ message: 'Your rate cannot increase yet', event: 'increase-rate' });
    // A timezone change is refused on B too, though B runs no session of this wallet.
    const tz = await fetch(`${b.url}/api/v1/streamer/timezone`, {
      method: 'PUT',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${tokenFor(s.wallet)}` },
      body: JSON.stringify({ timezone: 'Europe/Paris' }),
    });
    expect([tz.status, ((await tz.json()) as { message: string }).message]).toEqual([
      409,
      'Cannot change timezone while mining is active',
    ]);

    // mining-stats through B counts the session A runs, with A's figures (once A has mined a second and
    // written it: polled, as a dashboard does, rather than a guess at how long that takes on a busy machine).
    const stats = await waitFor(async () => {
      const body = await fetch(`${b.url}/api/v1/streamer/mining-stats?wallet=${s.wallet}`, {
        headers: { Authorization: `Bearer ${tokenFor(s.wallet)}` },
      }).then(
        (r) =>
          r.json() as Promise<Record<string, unknown> & { recentSessions: Array<Record<string, unknown>> }>,
      );
      const session = body.recentSessions[0];
      return session && Number(session.duration) >= 1 && Number(session.amountMined) > 0 ? body : undefined;
    }, 30_000);
    expect(stats).toMatchObject({ isLive: true, miningRate: 0.25, sessionCount: 1 });
    expect(stats.recentSessions[0]).toMatchObject({ endedAt: null, platform: 'demo' });
    expect(stats.recentSessions[0]!.duration).toBeGreaterThanOrEqual(1);
    expect(stats.recentSessions[0]!.amountMined).toBeGreaterThan(0);
    // stop-stream from the tab on B ends the session A runs: both tabs hear the same real totals.
    const stoppedHere = nextEvent<{ duration: number; amountMined: number; reason: string }>(
      s.socket,
      'stream-stopped',
    );
    const stoppedThere = nextEvent<{ duration: number; amountMined: number; reason: string }>(
      other,
      'stream-stopped',
    );
    other.emit('stop-stream', { platform: 'demo', wallet: s.wallet });
    const [here, there] = await Promise.all([stoppedHere, stoppedThere]);
    expect(there).toEqual(here);
    expect(there.reason).toBe('stopped');
    expect(there.duration).toBeGreaterThanOrEqual(1);
    const row = await prisma.miningSession.findFirstOrThrow({ where: { wallet: s.wallet } });
    expect(row.ownerInstance).toBe(onA);
    expect(row.endReason).toBe('stopped');
    expect(row.endedAt).not.toBeNull();
    expect(Number(row.minedUnits) / 1e6).toBeCloseTo(there.amountMined, 6);
    expect(row.minedUnits).toBe(expectedUnits(row.endedAt!.getTime() - row.startedAt.getTime()));
    // A's engine let it go: no update follows.
    const late = nextEvent(s.socket, 'mining-update', 1500).then(
      () => 'update',
      () => 'none',
    );
    expect(await late).toBe('none');

    // leave-room from B, for a session A runs, ends it too (reason left-room).
    const again = nextEvent<{ miningRate: number }>(s.socket, 'stream-started');
    s.socket.emit('start-stream', {
      platform: 'demo',
      wallet: s.wallet,
      username: s.username,
      tier: 'Tier 1',
    });
    await again;
    const left = nextEvent<{ reason: string }>(other, 'stream-stopped');
    other.emit('leave-room', { platform: 'demo', walletId: s.wallet });
    expect((await left).reason).toBe('left-room');
    expect(await prisma.miningSession.count({ where: { wallet: s.wallet, endedAt: null } })).toBe(0);
    s.socket.close();
    other.close();
  }, 120_000);

  it('pays one claim once when a wallet collects on both instances at the same moment', async () => {
    const s = await streamer(a, [a, b]);
    await new Promise((r) => setTimeout(r, 1000));
    const stopped = nextEvent(s.socket, 'stream-stopped');
    s.socket.emit('stop-stream', { platform: 'demo', wallet: s.wallet });
    await stopped;
    const { pendingRewardUnits: pending } = await prisma.streamer.findUniqueOrThrow({
      where: { wallet: s.wallet },
    });
    expect(pending).toBeGreaterThan(0n);
    const before = await tokenUnits(chain, s.keypair.publicKey);
    // A tab on each instance, each with a request transaction of its own, both collecting at once: each
    // instance's own per-wallet queue lets its collect through, so only the database can keep it to one.
    const other = await connect(b.url, s.wallet);
    const signatures = await Promise.all([
      selfTransfer(chain, s.keypair, 1),
      selfTransfer(chain, s.keypair, 2),
    ]);
    const answers = await Promise.all(
      [s.socket, other].map((socket, i) =>
        request(
          socket,
          'collect-rewards',
          { signature: signatures[i], wallet: s.wallet },
          ['rewards-collected', 'rewards-error', 'error'],
          60_000,
        ),
      ),
    );
    expect(answers.map((x) => x.event).sort()).toEqual(['rewards-collected', 'rewards-error']);
    expect(answers.find((x) => x.event === 'rewards-error')!.payload).toEqual({
      message: 'No rewards to collect',
    });
    const paid = answers.find((x) => x.event === 'rewards-collected')!;
    expect(paid.payload.amount).toBe(Number(pending) / 1e6);
    // One claim, confirmed, paying the whole pending reward once, on chain.
    const claims = await prisma.rewardClaim.findMany({ where: { wallet: s.wallet } });
    expect(claims).toHaveLength(1);
    expect(claims[0]).toMatchObject({
      status: 'confirmed',
      amountUnits: pending,
      payoutSignature: paid.payload.signature,
    });
    expect(await tokenUnits(chain, s.keypair.publicKey)).toBe(before + pending);
    const after = await prisma.streamer.findUniqueOrThrow({ where: { wallet: s.wallet } });
    expect(after.pendingRewardUnits).toBe(0n);
    s.socket.close();
    other.close();
  }, 120_000);

  it('moves the sessions of an instance killed mid-stream to the other, with the right totals', async () => {
    const onA = [await streamer(a, [a, b]), await streamer(a, [a, b])];
    const onB = await streamer(b, [a, b]);
    const sessions = await prisma.miningSession.findMany({ where: { endedAt: null } });
    expect(sessions).toHaveLength(3);
    const owners = new Set(sessions.map((x) => x.ownerInstance));
    expect(owners.size).toBe(2);

    await new Promise((r) => setTimeout(r, 2500));
    a.child.kill('SIGKILL');
    await new Promise((r) => (a.child as ChildProcess).once('exit', r));
    const killedAt = Date.now();

    // The clients reconnect through the load balancer: here, straight to B. Taken over once A's lease (2 s)
    // has run out, at B's next sweep (0.2 s) or the reconnection; the bound leaves room for a loaded machine.
    const TAKEOVER_BOUND_MS = LEASE_MS + 8000;
    const moved = await Promise.all(onA.map(async (s) => ({ ...s, socket: await connect(b.url, s.wallet) })));
    const firstUpdates = await Promise.all(
      moved.map((s) => nextEvent<{ duration: number }>(s.socket, 'mining-update', TAKEOVER_BOUND_MS)),
    );
    expect(Date.now() - killedAt).toBeLessThan(TAKEOVER_BOUND_MS);
    for (const [i, update] of firstUpdates.entries()) {
      // Still counting from the session's start on A, not from the takeover.
      expect(update.duration * 1000).toBeGreaterThanOrEqual(killedAt - moved[i]!.startedWithin[1] - 1000);
    }
    const takenOver = await prisma.miningSession.findMany({ where: { endedAt: null } });
    expect(takenOver).toHaveLength(3);
    expect(new Set(takenOver.map((x) => x.ownerInstance)).size).toBe(1);
    // B's metrics count the sessions it runs now: its own and the two it took over.
    const metrics = await (await fetch(`${b.url}/metrics`)).text();
    expect(metrics).toMatch(/^strm_mining_sessions_owned 3$/m);

    await new Promise((r) => setTimeout(r, 1500));
    for (const s of [...moved, onB]) {
      const stopped = nextEvent<{ duration: number; amountMined: number; pendingReward: number }>(
        s.socket,
        'stream-stopped',
      );
      const stopAsked = Date.now();
      s.socket.emit('stop-stream', { platform: 'demo', wallet: s.wallet });
      const event = await stopped;
      const stopAnswered = Date.now();
      const row = await prisma.miningSession.findFirstOrThrow({ where: { wallet: s.wallet } });
      // One session, run on two instances, credited once: the whole time from the client's start to its
      // stop (by the wall clock, the outage on A included), at the rate, once into the pending reward.
      expect(await prisma.miningSession.count({ where: { wallet: s.wallet } })).toBe(1);
      expect(row.startedAt.getTime()).toBeGreaterThanOrEqual(s.startedWithin[0]);
      expect(row.startedAt.getTime()).toBeLessThanOrEqual(s.startedWithin[1]);
      expect(row.endedAt!.getTime()).toBeGreaterThanOrEqual(stopAsked);
      expect(row.endedAt!.getTime()).toBeLessThanOrEqual(stopAnswered);
      const ms = row.endedAt!.getTime() - row.startedAt.getTime();
      expect(row.minedUnits).toBe(expectedUnits(ms));
      expect(Number(row.minedUnits) / 1e6).toBeCloseTo(event.amountMined, 6);
      const streamerRow = await prisma.streamer.findUniqueOrThrow({ where: { wallet: s.wallet } });
      expect(streamerRow.pendingRewardUnits).toBe(row.minedUnits);
      expect(ms).toBeGreaterThan(5000);
    }
  }, 180_000);

  it('hands the sessions of an instance stopped gracefully to the instance its clients reconnect to', async () => {
    const c = await instance();
    const s = await streamer(b, [b, c]);
    const stopping = b.stop();
    await nextEvent(s.socket, 'disconnect');
    expect(await stopping).toBe(0);
    const released = await prisma.miningSession.findFirstOrThrow({
      where: { wallet: s.wallet, endedAt: null },
    });
    expect(released.ownerInstance).toBeNull();
    const again = await connect(c.url, s.wallet);
    await nextEvent(again, 'mining-update', 10_000);
    const owned = await prisma.miningSession.findFirstOrThrow({ where: { wallet: s.wallet, endedAt: null } });
    expect(owned.ownerInstance).not.toBeNull();
    const stopped = nextEvent<{ amountMined: number }>(again, 'stream-stopped');
    again.emit('stop-stream', { platform: 'demo', wallet: s.wallet });
    await stopped;
    const row = await prisma.miningSession.findFirstOrThrow({ where: { wallet: s.wallet } });
    expect(row.minedUnits).toBe(expectedUnits(row.endedAt!.getTime() - row.startedAt.getTime()));
  }, 120_000);
});
