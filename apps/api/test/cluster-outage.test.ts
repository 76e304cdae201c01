// Two API instances through one database outage (docs/operations.md#faults): every lease lapses while the
// database is away. The instance that comes back first must not close the other's live sessions as orphans
// before that one is back too: the session is re-taken by its owner (or handed over), never closed under it
// or run twice.
import { accruedUnits, fromBaseUnits } from '@strm/shared';
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

const LEASE_MS = 3000;
let chain: TestChain;
let db: Awaited<ReturnType<typeof createTestDatabase>>;
const proxies: TcpProxy[] = [];
let a: EngineServer;
let b: EngineServer;

beforeAll(async () => {
  chain = await startTestChain();
  db = await createTestDatabase();
  const url = new URL(db.url);
  for (let i = 0; i < 2; i++)
    proxies.push(await startTcpProxy({ host: url.hostname, port: Number(url.port) }));
  // No grace: a session whose owner is dead is closed at its last checkpoint at the next sweep.
  const env = {
    INSTANCE_LEASE_MS: String(LEASE_MS),
    SESSION_SWEEP_MS: '100',
    SOCKET_GRACE_PERIOD_MS: '0',
  };
  a = await startEngineServer(chain, { databaseUrl: proxies[0]!.through(db.url), env });
  b = await startEngineServer(chain, { databaseUrl: proxies[1]!.through(db.url), env });
}, 180_000);

afterAll(async () => {
  for (const p of proxies) await p.restore().catch(() => {});
  await a?.close();
  await b?.close();
  for (const p of proxies) await p.close();
  await db?.drop();
  await chain?.stop();
});

describe('two instances through a database outage', () => {
  it('leaves a live session with its owner when the other instance is back first', async () => {
    const s = await readyStreamer(chain, a);
    expect((await startStream(s)).event).toBe('stream-started');
    const row = () => a.prisma.miningSession.findFirstOrThrow({ where: { wallet: s.wallet } });
    const { ownerInstance, startedAt, rateUnitsPerHour } = await row();

    // Both cut off for longer than a lease.
    for (const p of proxies) await p.cut();
    await new Promise((r) => setTimeout(r, LEASE_MS + 2000));
    // B is back a second before A: on the previous code its next sweep closed A's session at its checkpoint.
    await proxies[1]!.restore();
    await new Promise((r) => setTimeout(r, 1000));
    await proxies[0]!.restore();
    // A has re-taken its lease and writes its next checkpoint; the session is A's and open all along.
    a.clock.advance(60_000);
    await waitFor(async () => (await row()).accruedUntil.getTime() === startedAt.getTime() + 60_000, 20_000);
    await new Promise((r) => setTimeout(r, LEASE_MS));
    expect(await row()).toMatchObject({ ownerInstance, endedAt: null });
    expect(b.app.services.engine.liveCount).toBe(0);

    const stopped = next<{ duration: number; amountMined: number }>(s.socket, 'stream-stopped');
    a.clock.advance(30_000);
    await request(s.socket, 'stop-stream', { platform: 'demo', wallet: s.wallet }, ['stream-stopped']);
    expect(await stopped).toMatchObject({
      duration: 90,
      amountMined: fromBaseUnits(accruedUnits(rateUnitsPerHour, 90)),
      reason: 'stopped',
    });
    s.socket.close();
  });
});
