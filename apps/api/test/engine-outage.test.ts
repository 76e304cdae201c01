// A live session through database outages (docs/operations.md#faults), with the real engine, chain and
// PostgreSQL (behind a proxy the test cuts): updates keep coming from memory, a checkpoint that could not be
// written is written when the database is back, and a session that ends during an outage is credited exactly
// once, to the second, when it returns. The instance keeps the session through it (its lease lapsed
// meanwhile).
import { accruedUnits, fromBaseUnits, SERVER_MESSAGES } from '@strm/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type EngineServer,
  next,
  readyStreamer,
  request,
  startEngineServer,
  startStream,
  startTestChain,
  type TestChain,
  waitFor,
} from './support/engine-harness.ts';
import { createTestDatabase } from './support/test-app.ts';
import { startTcpProxy, type TcpProxy } from './support/tcp-proxy.ts';

let chain: TestChain;
let db: Awaited<ReturnType<typeof createTestDatabase>>;
let proxy: TcpProxy;
let server: EngineServer;
const unhandled: unknown[] = [];
const onUnhandled = (reason: unknown) => unhandled.push(reason);

beforeAll(async () => {
  process.on('unhandledRejection', onUnhandled);
  chain = await startTestChain();
  db = await createTestDatabase();
  const url = new URL(db.url);
  proxy = await startTcpProxy({ host: url.hostname, port: Number(url.port) });
  server = await startEngineServer(chain, {
    databaseUrl: proxy.through(db.url),
    // A lease that lapses within the outage below.
    env: { INSTANCE_LEASE_MS: '600', SESSION_SWEEP_MS: '100' },
  });
}, 180_000);

afterAll(async () => {
  process.off('unhandledRejection', onUnhandled);
  await proxy.restore().catch(() => {});
  await server?.close();
  await proxy?.close();
  await db?.drop();
  await chain?.stop();
});

describe('a database outage under a live session', () => {
  it('keeps the session, writes the checkpoint it owed, and credits a stop made during the outage exactly', async () => {
    const s = await readyStreamer(chain, server);
    const started = await startStream(s);
    expect(started.event).toBe('stream-started');
    const rate = (await server.prisma.miningSession.findFirstOrThrow({ where: { wallet: s.wallet } }))
      .rateUnitsPerHour;
    const row = () => server.prisma.miningSession.findFirstOrThrow({ where: { wallet: s.wallet } });
    const { id, startedAt, ownerInstance } = await row();
    const at = (seconds: number) => new Date(startedAt.getTime() + seconds * 1000);

    // Outage 1: the checkpoint due at 60 s cannot be written; updates go on from memory.
    await proxy.cut();
    server.clock.advance(60_000);
    const update = await next<{ duration: number }>(s.socket, 'mining-update');
    expect(update.duration).toBeGreaterThanOrEqual(60);
    // Long enough for the instance's lease to lapse (its renewals fail meanwhile).
    await waitFor(() => server.app.services.engine.unwritten.checkpoints === 1);
    await new Promise((r) => setTimeout(r, 1500));
    await proxy.restore();
    // Written once the database answers; the session is still this instance's and open.
    await waitFor(async () => (await row()).accruedUntil.getTime() === at(60).getTime(), 20_000);
    expect(await row()).toMatchObject({
      id,
      endedAt: null,
      ownerInstance,
      minedUnits: accruedUnits(rate, 60),
    });

    // Outage 2: the stop at 150 s cannot be written; the streamer is told it is kept.
    server.clock.advance(90_000);
    await proxy.cut();
    const kept = await request(s.socket, 'stop-stream', { platform: 'demo', wallet: s.wallet }, ['error']);
    expect(kept.payload.message).toBe(SERVER_MESSAGES.creditDelayed);
    const stopped = next<{ duration: number; amountMined: number; pendingReward: number }>(
      s.socket,
      'stream-stopped',
      30_000,
    );
    server.clock.advance(600_000);
    await new Promise((r) => setTimeout(r, 1500));
    await proxy.restore();

    // Credited to the second of the stop, once.
    const mined = accruedUnits(rate, 150);
    expect(await stopped).toEqual({
      duration: 150,
      amountMined: fromBaseUnits(mined),
      pendingReward: fromBaseUnits(mined),
      reason: 'stopped',
    });
    expect(await row()).toMatchObject({ endedAt: at(150), accruedUntil: at(150), minedUnits: mined });
    const streamer = await server.prisma.streamer.findUniqueOrThrow({ where: { wallet: s.wallet } });
    expect(streamer.pendingRewardUnits).toBe(mined);
    expect(server.app.services.engine.unwritten).toEqual({ checkpoints: 0, closes: 0 });
    expect(unhandled).toEqual([]);
    s.socket.close();
  });
});
