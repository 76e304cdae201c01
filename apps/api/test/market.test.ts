// GET /api/v1/market against a fake DEX pair API (a real HTTP server on a free port), and
// GET /api/v1/client-config.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './support/test-app.ts';

type Answer = { status: number; body: string } | 'hang';
let answer: Answer;
let hits = 0;
let dex: Server;
let dexUrl: string;

const pair = (over: Record<string, unknown> = {}) =>
  JSON.stringify({
    schemaVersion: '1.0.0',
    pairs: [
      {
        priceUsd: '0.00412345',
        fdv: 4123450,
        volume: { h24: 98765.4 },
        txns: { h24: { buys: 321, sells: 123 } },
        ...over,
      },
    ],
  });

beforeAll(async () => {
  dex = createServer((_req, res) => {
    hits += 1;
    if (answer === 'hang') return;
    res.writeHead(answer.status, { 'Content-Type': 'application/json' }).end(answer.body);
  });
  await new Promise<void>((resolve) => dex.listen(0, '127.0.0.1', resolve));
  dexUrl = `http://127.0.0.1:${(dex.address() as AddressInfo).port}/latest/dex/pairs/solana/PAIR`;
});
afterAll(async () => {
  dex.closeAllConnections();
  await new Promise((resolve) => dex.close(resolve));
});

describe('GET /api/v1/market with a DEX pair configured', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({
      env: {
        DEX_PAIR_API_URL: dexUrl,
        MARKET_REFRESH_MS: '30000',
        DEX_CHART_URL: 'https://dex.example/solana/PAIR',
        TOKEN_EXPLORER_URL: 'https://explorer.example/token/MINT',
      },
    });
  });
  afterAll(() => t.close());

  const next = () => t.clock.advance(30_000);

  it('reads the first pair, caches it for 30 s and asks the DEX once however many callers', async () => {
    answer = { status: 200, body: pair() };
    hits = 0;
    const [a, b] = await Promise.all([
      request(t.app).get('/api/v1/market'),
      request(t.app).get('/api/v1/market'),
    ]);
    expect(a.status).toBe(200);
    expect(a.body).toEqual({
      configured: true,
      market: {
        price: 0.00412345,
        marketCap: 4123450,
        volume24h: 98765.4,
        transactions: { buys: 321, sells: 123 },
      },
      error: null,
      updatedAt: '2026-01-01T00:00:00.000Z',
    });
    expect(b.body).toEqual(a.body);
    answer = { status: 200, body: pair({ priceUsd: '2.5' }) };
    t.clock.advance(29_999);
    expect((await request(t.app).get('/api/v1/market')).body.market.price).toBe(0.00412345);
    expect(hits).toBe(1);
    t.clock.advance(1);
    expect((await request(t.app).get('/api/v1/market')).body.market.price).toBe(2.5);
    expect(hits).toBe(2);
  });

  it("says 'Invalid response format' when there is no first pair, keeping the last figures", async () => {
    next();
    answer = { status: 200, body: JSON.stringify({ pairs: [] }) };
    const res = await request(t.app).get('/api/v1/market');
    expect(res.body.error).toBe('Invalid response format');
    expect(res.body.market.price).toBe(2.5);
    next();
    answer = { status: 200, body: JSON.stringify({ pairs: [{ priceUsd: 'abc' }] }) };
    expect((await request(t.app).get('/api/v1/market')).body.error).toBe('Invalid response format');
  });

  it("says 'Failed to fetch market data' on an HTTP error or a body that is not JSON", async () => {
    next();
    answer = { status: 502, body: 'bad gateway' };
    expect((await request(t.app).get('/api/v1/market')).body.error).toBe('Failed to fetch market data');
    next();
    answer = { status: 200, body: '<html>' };
    expect((await request(t.app).get('/api/v1/market')).body.error).toBe('Failed to fetch market data');
    next();
    answer = { status: 200, body: pair({ priceUsd: 3 }) };
    const res = await request(t.app).get('/api/v1/market');
    expect(res.body.error).toBeNull();
    expect(res.body.market.price).toBe(3);
  });

  it('tells the web app its RPC endpoint, the demo switch, the platforms it can connect and the configured links', async () => {
    const res = await request(t.app).get('/api/v1/client-config');
    expect(res.body).toEqual({
      rpcUrl: 'http://127.0.0.1:9',
      demoPlatform: true,
      oauthPlatforms: { youtube: false, kick: false },
      links: {
        dexChart: 'https://dex.example/solana/PAIR',
        tokenExplorer: 'https://explorer.example/token/MINT',
        addressExplorer: 'https://explorer.solana.com/address/{address}',
      },
    });
  });
});

describe('GET /api/v1/market without a pair configured', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('answers configured: false and asks no one', async () => {
    hits = 0;
    const res = await request(t.app).get('/api/v1/market');
    expect(res.body).toEqual({ configured: false, market: null, error: null, updatedAt: null });
    expect(hits).toBe(0);
  });
});

describe('GET /api/v1/market when the DEX does not answer', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ env: { DEX_PAIR_API_URL: 'http://127.0.0.1:9/pairs' } });
  });
  afterAll(() => t.close());

  it("says 'Failed to fetch market data'", async () => {
    const res = await request(t.app).get('/api/v1/market');
    expect(res.body).toEqual({
      configured: true,
      market: null,
      error: 'Failed to fetch market data',
      updatedAt: null,
    });
  });
});
