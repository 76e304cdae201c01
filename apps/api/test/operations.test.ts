import http from 'node:http';
// What operators and load balancers see: liveness and readiness, request ids, Prometheus metrics, the web
// app's compression and caching, and the order of a graceful shutdown.
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import net, { type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { io as connect, type Socket } from 'socket.io-client';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../src/app.ts';
import { createRpc } from '../src/rpc/rpc.ts';
import { loadConfig } from '../src/config.ts';
import { createPrisma, type PrismaClient } from '../src/db/index.ts';
import { createLogger } from '../src/logger.ts';
import { createMetrics } from '../src/observability/metrics.ts';
import { issueAuthToken } from '../src/services/auth/tokens.ts';
import { seedDefaultTiers } from '../src/services/tiers/catalog.ts';
import { createTestDatabase, fakeClock, grantAccess } from './support/test-app.ts';

const wallet = '9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM';
let db: Awaited<ReturnType<typeof createTestDatabase>>;
let prisma: PrismaClient;
let webDist: string;
const bigScript = `console.log(${JSON.stringify('mining '.repeat(2000))});\n`;

const JWT_SECRET = 'operations-test-secret-0123456789abcdef';
const clock = fakeClock();
/** Sockets pass the sign-in handshake like the web app's. */
const socketAuth = () => ({ wallet, authToken: issueAuthToken(loadConfig({ JWT_SECRET }), wallet, clock) });

function build(env: Record<string, string> = {}) {
  const config = loadConfig({
    NODE_ENV: 'test',
    DATABASE_URL: db.url,
    WEB_DIST: webDist,
    JWT_SECRET,
    ...env,
  });
  const metrics = createMetrics();
  return createApp({
    config,
    prisma,
    rpc: createRpc('http://127.0.0.1:9', undefined, metrics),
    clock,
    logger: createLogger('silent'),
    metrics,
  });
}

beforeAll(async () => {
  db = await createTestDatabase();
  prisma = createPrisma(db.url);
  await seedDefaultTiers(prisma);
  await grantAccess(prisma, wallet);
  webDist = await mkdtemp(join(tmpdir(), 'strm-web-'));
  await mkdir(join(webDist, 'assets'));
  await writeFile(
    join(webDist, 'index.html'),
    '<!doctype html><title>STRM</title><meta property="og:url" content="%WEB_ORIGIN%/"><div id="root"></div>',
  );
  await writeFile(join(webDist, 'assets', 'index-D3adB33f.js'), bigScript);
  await writeFile(join(webDist, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
});
afterAll(async () => {
  await prisma.$disconnect();
  await db.drop();
  await rm(webDist, { recursive: true, force: true });
});

describe('health for load balancers and orchestrators', () => {
  it('answers liveness without touching dependencies', async () => {
    const res = await request(build().app).get('/api/v1/health/live');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ok' });
  });

  it('is ready with its database, reporting an unreachable chain without failing readiness', async () => {
    const res = await request(build().app).get('/api/v1/health/ready');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'ready', database: { ok: true }, chain: { ok: false } });
  });

  it('is not ready without its database', async () => {
    const dead = createPrisma('postgresql://nobody@127.0.0.1:9/none');
    const config = loadConfig({ NODE_ENV: 'test', DATABASE_URL: db.url });
    const { app } = createApp({
      config,
      prisma: dead,
      rpc: createRpc('http://127.0.0.1:9'),
      clock: fakeClock(),
      logger: createLogger('silent'),
    });
    const res = await request(app).get('/api/v1/health/ready');
    expect(res.status).toBe(503);
    expect(res.body.status).toBe('not_ready');
    expect(res.body.database.ok).toBe(false);
    await dead.$disconnect();
  });
});

describe('request ids', () => {
  it('gives every response an X-Request-Id, keeping a well-formed one from the proxy', async () => {
    const { app } = build();
    const made = await request(app).get('/api/v1/tiers');
    expect(made.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    const kept = await request(app).get('/api/v1/tiers').set('X-Request-Id', 'lb-7f3a.42');
    expect(kept.headers['x-request-id']).toBe('lb-7f3a.42');
    const replaced = await request(app).get('/api/v1/tiers').set('X-Request-Id', 'bad id\twith spaces');
    expect(replaced.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('writes one structured log line per request carrying that id', async () => {
    const lines: string[] = [];
    const logger = createLogger('info');
    const stream = { write: (line: string) => lines.push(line) };
    const config = loadConfig({ NODE_ENV: 'test', DATABASE_URL: db.url });
    const { default: pino } = await import('pino');
    const { app } = createApp({
      config,
      prisma,
      rpc: createRpc('http://127.0.0.1:9'),
      clock: fakeClock(),
      logger: pino({ level: 'info' }, stream) as unknown as typeof logger,
    });
    await request(app).get('/api/v1/tiers').set('X-Request-Id', 'trace-123');
    const entry = lines.map((l) => JSON.parse(l)).find((l) => l.requestId === 'trace-123');
    expect(entry).toMatchObject({ req: { method: 'GET', url: '/api/v1/tiers' }, res: { statusCode: 200 } });
    expect(entry.responseTime).toEqual(expect.any(Number));
  });
});

describe('GET /metrics', () => {
  it('exposes process, HTTP, RPC, socket and mining figures in Prometheus format', async () => {
    await prisma.streamer.upsert({ where: { wallet }, create: { wallet }, update: {} });
    const started = new Date('2026-01-01T00:00:00Z');
    await prisma.miningSession.createMany({
      data: [
        {
          wallet,
          platform: 'twitch',
          tierName: 'Tier 1',
          rateUnitsPerHour: 250_000n,
          startedAt: started,
          accruedUntil: started,
          minedUnits: 1_000n,
        },
        {
          wallet,
          platform: 'twitch',
          tierName: 'Tier 1',
          rateUnitsPerHour: 250_000n,
          startedAt: started,
          accruedUntil: started,
          endedAt: started,
          minedUnits: 500n,
        },
      ],
    });
    const { app } = build();
    await request(app).get('/api/v1/health'); // one RPC call to the unreachable chain
    const res = await request(app).get('/metrics');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toContain('text/plain');
    const text = res.text;
    expect(text).toMatch(/^nodejs_eventloop_lag_seconds \d/m);
    expect(text).toMatch(/^strm_socket_connections 0$/m);
    expect(text).toMatch(
      /^strm_solana_rpc_duration_seconds_count\{method="getVersion",outcome="unreachable"\} 1$/m,
    );
    expect(text).toMatch(
      /^strm_http_request_duration_seconds_count\{method="GET",route="\/api\/v1\/health",status="200"\} 1$/m,
    );
    expect(text).toMatch(/^strm_mining_sessions_live 1$/m);
    expect(text).toMatch(/^strm_mined_units 1500$/m);
  });

  it('counts connected sockets', async () => {
    const { server, io } = build();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const client = connect(`http://127.0.0.1:${port}`, { transports: ['websocket'], auth: socketAuth() });
    await new Promise<void>((resolve) => client.once('connect', () => resolve()));
    const res = await fetch(`http://127.0.0.1:${port}/metrics`);
    expect(await res.text()).toMatch(/^strm_socket_connections 1$/m);
    client.close();
    io.close();
  });

  it('requires the bearer token when METRICS_TOKEN is set', async () => {
    const { app } = build({ METRICS_TOKEN: 'scrape-secret-0123456789' });
    expect((await request(app).get('/metrics')).status).toBe(401);
    const res = await request(app).get('/metrics').set('Authorization', 'Bearer scrape-secret-0123456789');
    expect(res.status).toBe(200);
  });
});

describe('the built web app', () => {
  it('serves hashed assets compressed and cached for a year', async () => {
    const res = await request(build().app)
      .get('/assets/index-D3adB33f.js')
      .set('Accept-Encoding', 'gzip, br');
    expect(res.status).toBe(200);
    expect(res.headers['content-encoding']).toMatch(/^(br|gzip)$/);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(Number(res.headers['content-length'] ?? 0)).toBeLessThan(bigScript.length);
  });

  it('revalidates index.html and unhashed files on every load', async () => {
    const { app } = build();
    for (const path of ['/', '/callback', '/favicon.svg']) {
      const res = await request(app).get(path);
      expect(res.status).toBe(200);
      expect(res.headers['cache-control']).toBe('no-cache');
    }
  });

  it('lets the authorisation popup keep its opener: the app allows popups, /callback has no opener policy', async () => {
    // Measured in Chromium: with 'same-origin' on the dashboard, or any policy on /callback, a popup that went
    // through Twitch's pages comes back with window.opener null (twitch.e2e.test.ts goes through them).
    const { app } = build();
    expect((await request(app).get('/')).headers['cross-origin-opener-policy']).toBe(
      'same-origin-allow-popups',
    );
    const callback = await request(app).get('/callback');
    expect(callback.headers['cross-origin-opener-policy']).toBe('unsafe-none');
  });

  it('serves robots.txt and sitemap.xml as such (not the page), naming the public origin', async () => {
    const { app } = build({ WEB_ORIGINS: 'https://strm.example,http://127.0.0.1:5173' });
    const robots = await request(app).get('/robots.txt');
    expect(robots.status).toBe(200);
    expect(robots.headers['content-type']).toMatch(/^text\/plain/);
    expect(robots.text).toBe(
      'User-agent: *\nAllow: /\nDisallow: /callback\n\nSitemap: https://strm.example/sitemap.xml\n',
    );
    const sitemap = await request(app).get('/sitemap.xml');
    expect(sitemap.status).toBe(200);
    expect(sitemap.headers['content-type']).toMatch(/^application\/xml/);
    expect(sitemap.text).toContain('<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">');
    expect(sitemap.text).toContain('<loc>https://strm.example/</loc>');
    // The page's sharing tags carry the same absolute address, whichever path serves it.
    for (const path of ['/', '/index.html', '/callback']) {
      const page = await request(app).get(path);
      expect(page.headers['content-type']).toMatch(/^text\/html/);
      expect(page.text).toContain('<meta property="og:url" content="https://strm.example/">');
    }
  });

  it('serves llms.txt as Markdown under an H1 with links on the public origin', async () => {
    const { app } = build({ WEB_ORIGINS: 'https://strm.example,http://127.0.0.1:5173' });
    const llms = await request(app).get('/llms.txt');
    expect(llms.status).toBe(200);
    expect(llms.headers['content-type']).toMatch(/^text\/markdown/);
    expect(llms.text.split('\n')[0]).toBe('# STRM Mining Platform');
    expect(llms.text).toContain('[Landing page](https://strm.example/)');
    expect(llms.text).toContain('[API reference](https://strm.example/api/docs)');
  });

  it('answers 404 for a missing file or well-known URI instead of the page; a client route is still the page', async () => {
    const { app } = build();
    for (const path of [
      '/.well-known/ai-catalog.json',
      '/favicon.ico',
      '/ads.txt',
      '/some/where/data.json',
    ]) {
      const res = await request(app).get(path);
      expect({ path, status: res.status, html: /html/.test(res.headers['content-type'] ?? '') }).toEqual({
        path,
        status: 404,
        html: false,
      });
    }
    const route = await request(app).get('/some/unknown/route');
    expect(route.status).toBe(200);
    expect(route.headers['content-type']).toMatch(/^text\/html/);
  });

  it('answers 404 for a missing asset instead of the page', async () => {
    const res = await request(build().app).get('/assets/index-gone.js');
    expect(res.status).toBe(404);
  });
});

describe('graceful shutdown', () => {
  it('stops accepting, runs drain hooks while sockets are connected, then disconnects them and closes in reverse order', async () => {
    const { server, io, lifecycle } = build();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const client: Socket = connect(`http://127.0.0.1:${port}`, {
      transports: ['websocket'],
      auth: socketAuth(),
      reconnection: false,
    });
    await new Promise<void>((resolve) => client.once('connect', () => resolve()));
    const steps: string[] = [];
    const disconnected = new Promise<string>((resolve) => client.once('disconnect', resolve));
    lifecycle.onClose('database', () => steps.push('close database'));
    lifecycle.onClose('chain', () => steps.push('close chain'));
    lifecycle.onDrain('checkpoint sessions', async () => {
      steps.push(`drain (accepting=${lifecycle.accepting}, sockets=${io.engine.clientsCount})`);
      // A new connection is refused while draining.
      await expect(fetch(`http://127.0.0.1:${port}/api/v1/health/live`)).rejects.toThrow();
    });
    await lifecycle.shutdown(server, io);
    // A lost connection, which clients reconnect after by themselves (not 'io server disconnect').
    expect(await disconnected).toBe('transport close');
    expect(steps).toEqual(['drain (accepting=false, sockets=1)', 'close chain', 'close database']);
  });

  it('cuts a WebSocket whose client never answers the close frame instead of waiting for it', async () => {
    const { server, io, lifecycle } = build();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    // A client that upgrades, then reads nothing and answers nothing (a stalled peer, a proxy holding it).
    const peer = net.connect(port, '127.0.0.1');
    await new Promise<void>((resolve) => peer.once('connect', () => resolve()));
    const upgraded = new Promise<string>((resolve) => peer.once('data', (d) => resolve(d.toString())));
    peer.write(
      'GET /socket.io/?EIO=4&transport=websocket HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\n' +
        'Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n',
    );
    expect(await upgraded).toMatch(/^HTTP\/1\.1 101/);
    peer.on('data', () => {});
    const cut = new Promise<void>((resolve) => peer.once('close', () => resolve()));
    // Without the cut, ws waits 30 s for the close frame's answer: longer than SHUTDOWN_TIMEOUT_MS (10 s by
    // default), after which the process exits without closing its database or chain.
    const started = performance.now();
    await lifecycle.shutdown(server, io);
    expect(performance.now() - started).toBeLessThan(loadConfig({ NODE_ENV: 'test' }).shutdownTimeoutMs);
    await cut;
  });

  it("closes a keep-alive connection that goes idle during the drain (a load balancer's) instead of waiting for it", async () => {
    const { app, server, io, lifecycle } = build();
    // A request that is still being answered when the shutdown begins, on the balancer's connection (kept
    // alive far longer than the shutdown may take): busy when the server stops accepting, idle after.
    server.removeAllListeners('request');
    server.on('request', (req, res) => {
      if (req.url === '/slow') setTimeout(() => res.end('done'), 300);
      else app(req, res);
    });
    server.keepAliveTimeout = 600_000;
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const get = (path: string) =>
      new Promise<number>((resolve, reject) => {
        http
          .get({ host: '127.0.0.1', port, path, agent }, (res) => {
            res.resume();
            res.on('end', () => resolve(res.statusCode ?? 0));
          })
          .on('error', reject);
      });
    expect(await get('/api/v1/health/live')).toBe(200);
    const [socket] = Object.values(agent.sockets).flat().concat(Object.values(agent.freeSockets).flat());
    const closed = new Promise<void>((resolve) => socket?.once('close', () => resolve()));
    const slow = get('/slow');
    await new Promise((resolve) => setTimeout(resolve, 50));
    await lifecycle.shutdown(server, io);
    // The request in flight was answered; then its connection went, not left to its keep-alive.
    expect(await slow).toBe(200);
    // The shutdown resolved with the connection closed, not left to its keep-alive.
    await closed;
    expect(socket?.destroyed).toBe(true);
    agent.destroy();
  });
});
