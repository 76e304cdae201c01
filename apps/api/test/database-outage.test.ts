// The API through a database outage (docs/operations.md#faults): a real PostgreSQL behind a proxy the test
// cuts, as a crash or a managed failover does. Nothing unhandled reaches the process, the background loops
// count their failures in /metrics and retry, cached reads keep answering, routes that need the database
// answer 503 with Retry-After, /health answers states (not error text), and everything works again once it is
// back.
import { createServer, type Server } from 'node:net';
import { Keypair } from '@solana/web3.js';
import { CLIENT_MESSAGES } from '@strm/mining-client';
import { SERVER_MESSAGES } from '@strm/shared';
import { io as connectSocket } from 'socket.io-client';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../src/app.ts';
import { createRpc } from '../src/rpc/rpc.ts';
import { loadConfig } from '../src/config.ts';
import { createPrisma, type PrismaClient } from '../src/db/index.ts';
import { createLogger } from '../src/logger.ts';
import { issueAuthToken } from '../src/services/auth/tokens.ts';
import { seedDefaultTiers } from '../src/services/tiers/catalog.ts';
import { waitFor } from './support/engine-harness.ts';
import { createTestDatabase, fakeClock, grantAccess, TEST_JWT_SECRET } from './support/test-app.ts';
import { startTcpProxy, type TcpProxy } from './support/tcp-proxy.ts';

const unhandled: unknown[] = [];
const onUnhandled = (reason: unknown) => unhandled.push(reason);

let db: Awaited<ReturnType<typeof createTestDatabase>>;
let proxy: TcpProxy;
let prisma: PrismaClient;
let app: ReturnType<typeof createApp>;
/** A Solana RPC that accepts connections and never answers (a stalled node, as under SIGSTOP). */
let stalledRpc: Server;
let cfg: ReturnType<typeof loadConfig>;
const config = () =>
  loadConfig({
    NODE_ENV: 'test',
    DATABASE_URL: proxy.through(db.url),
    JWT_SECRET: TEST_JWT_SECRET,
    TIERS_REFRESH_MS: '100',
    CLAIMS_RECONCILE_MS: '100',
    INSTANCE_LEASE_MS: '600',
    SESSION_SWEEP_MS: '100',
  });

beforeAll(async () => {
  process.on('unhandledRejection', onUnhandled);
  db = await createTestDatabase();
  const url = new URL(db.url);
  proxy = await startTcpProxy({ host: url.hostname, port: Number(url.port) });
  stalledRpc = createServer(() => {});
  await new Promise<void>((resolve) => stalledRpc.listen(0, '127.0.0.1', resolve));
  const rpcPort = (stalledRpc.address() as { port: number }).port;
  cfg = config();
  prisma = createPrisma(cfg.databaseUrl!);
  await seedDefaultTiers(prisma);
  app = createApp({
    config: cfg,
    prisma,
    databaseUrl: cfg.databaseUrl,
    rpc: createRpc(`http://127.0.0.1:${rpcPort}`, `ws://127.0.0.1:${rpcPort}`),
    clock: fakeClock(),
    logger: createLogger('silent'),
  });
  await app.services.start();
  await new Promise<void>((resolve) => app.server.listen(0, '127.0.0.1', resolve));
});

afterAll(async () => {
  process.off('unhandledRejection', onUnhandled);
  await proxy.restore().catch(() => {});
  await app.services.stop().catch(() => {});
  app.io.close();
  if (app.server.listening) await new Promise((resolve) => app.server.close(resolve));
  await prisma.$disconnect();
  await proxy.close();
  stalledRpc.close();
  await db.drop();
});

async function metric(name: string, loop: string): Promise<number> {
  const text = (await request(app.app).get('/metrics')).text;
  const line = text.split('\n').find((l) => l.startsWith(`${name}{loop="${loop}"}`));
  return line ? Number(line.split(' ').at(-1)) : 0;
}

describe('a database outage', () => {
  it('is ridden through: loops retry and count, cached reads answer, the rest answers 503 with Retry-After', async () => {
    const wallet = Keypair.generate().publicKey.toBase58();
    const auth = { Authorization: `Bearer ${issueAuthToken(cfg, wallet, fakeClock())}` };
    // Read once while the database answers (the maintenance status is then kept).
    expect((await request(app.app).get('/api/v1/maintenance')).status).toBe(200);

    await proxy.cut();
    // The tier refresh ran into the outage (on the old code its rejection was unhandled and ended the API).
    await waitFor(async () => (await metric('strm_background_failures_total', 'tier-refresh')) >= 2);
    await waitFor(async () => (await metric('strm_background_failing', 'instance-lease')) === 1);
    expect(await metric('strm_background_failing', 'tier-refresh')).toBe(1);

    const tiers = await request(app.app).get('/api/v1/tiers');
    expect(tiers.status).toBe(200);
    expect(tiers.body).toHaveLength(9);
    const maintenance = await request(app.app).get('/api/v1/maintenance');
    expect(maintenance.status).toBe(200);
    expect(maintenance.body.is_maintenance).toBe(false);

    const streamer = await request(app.app).get('/api/v1/streamer').query({ wallet }).set(auth);
    expect(streamer.status).toBe(503);
    expect(streamer.headers['retry-after']).toBe('5');
    expect(streamer.body).toEqual({
      error: 'database_unavailable',
      message: SERVER_MESSAGES.databaseUnavailable,
    });
    // Signing in fails cleanly, with the same answer.
    const nonce = await request(app.app).get('/api/v1/nonce').query({ publicKey: wallet });
    expect(nonce.status).toBe(503);
    expect(nonce.body.message).toBe(SERVER_MESSAGES.databaseUnavailable);

    // States, not error text; the stalled chain does not hold the answer.
    const health = await request(app.app).get('/api/v1/health');
    expect(health.status).toBe(503);
    expect(health.body).toEqual({
      status: 'degraded',
      database: { ok: false, state: 'unreachable' },
      chain: { ok: false, state: 'unreachable' },
    });

    await proxy.restore();
    await waitFor(async () => (await metric('strm_background_failing', 'tier-refresh')) === 0);
    await waitFor(async () => (await metric('strm_background_failing', 'instance-lease')) === 0);
    const after = await request(app.app).get('/api/v1/streamer').query({ wallet }).set(auth);
    expect(after.status).not.toBe(503);
    expect((await request(app.app).get('/api/v1/health')).body.database).toEqual({ ok: true, state: 'ok' });
    expect(unhandled).toEqual([]);
  });
});

describe('a stalled chain', () => {
  it('refuses tier actions and collects at once with the congestion message', async () => {
    // /health finds the RPC silent (within its 1 s probe).
    expect((await request(app.app).get('/api/v1/health')).body.chain).toEqual({
      ok: false,
      state: 'unreachable',
    });
    const wallet = Keypair.generate().publicKey.toBase58();
    await grantAccess(prisma, wallet);
    const { port } = app.server.address() as { port: number };
    const socket = connectSocket(`http://127.0.0.1:${port}`, {
      transports: ['websocket'],
      auth: { wallet, authToken: issueAuthToken(cfg, wallet, fakeClock()) },
      reconnection: false,
      forceNew: true,
    });
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', () => resolve());
      socket.once('connect_error', reject);
    });
    const answer = (event: string) =>
      new Promise<{ message: string }>((resolve) =>
        socket.once(event, (p: { message: string }) => resolve(p)),
      );
    const signature = '1'.repeat(88);
    const tierError = answer('tier-error');
    socket.emit('activate-tier', { signature, tier: 'Tier 1' });
    expect((await tierError).message).toBe(CLIENT_MESSAGES.networkCongestion);
    const rewardsError = answer('rewards-error');
    socket.emit('collect-rewards', { signature, wallet });
    expect((await rewardsError).message).toBe(CLIENT_MESSAGES.networkCongestion);
    socket.close();
    expect(unhandled).toEqual([]);
  });
});
