import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestApp, type TestApp } from './support/test-app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

describe('GET /api/v1/health', () => {
  it('reports the database reachable and an unreachable chain as degraded, not as a failure', async () => {
    const res = await request(t.app).get('/api/v1/health');
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('degraded');
    // States, never an error's text.
    expect(res.body.database).toEqual({ ok: true, state: 'ok' });
    expect(res.body.chain).toEqual({ ok: false, state: 'unreachable' });
  });
});

describe('GET /api/v1/tiers', () => {
  it('serves the nine seeded tiers in snake_case sorted by order_by', async () => {
    const res = await request(t.app).get('/api/v1/tiers');
    expect(res.status).toBe(200);
    expect(res.body).toHaveLength(9);
    expect(res.body.map((tier: { order_by: number }) => tier.order_by)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(res.body[0]).toEqual({
      id: expect.any(Number),
      name: 'Tier 1',
      deposit_requirement: 1000,
      base_multiplier: 1,
      hourly_base_rate: 0.25,
      max_multiplier: 8,
      hourly_max_rate: 2,
      daily_mining_limit_seconds: 28800,
      order_by: 1,
    });
    expect(res.body[8]).toMatchObject({
      name: 'Tier 9',
      deposit_requirement: 1_000_000,
      hourly_max_rate: 64,
    });
  });

  it('follows the database: an operator reordering tiers changes the order served', async () => {
    await t.prisma.$transaction([
      t.prisma.tier.update({ where: { name: 'Tier 1' }, data: { orderBy: 100 } }),
    ]);
    // Served from memory, reloaded periodically (TIERS_REFRESH_MS) for edits made in the database.
    await vi.waitFor(async () => {
      const res = await request(t.app).get('/api/v1/tiers');
      expect(res.body.at(-1).name).toBe('Tier 1');
    });
    await t.prisma.tier.update({ where: { name: 'Tier 1' }, data: { orderBy: 1 } });
    await vi.waitFor(async () => {
      const res = await request(t.app).get('/api/v1/tiers');
      expect(res.body[0].name).toBe('Tier 1');
    });
  });
});

describe('bad requests', () => {
  it('answers a malformed JSON body with a 400 JSON error', async () => {
    const res = await request(t.app)
      .post('/api/v1/tiers')
      .set('Content-Type', 'application/json')
      .send('{"name": ');
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: 'invalid_json', message: 'Malformed JSON body' });
  });

  it('refuses an oversized body with 413', async () => {
    const res = await request(t.app)
      .post('/api/v1/tiers')
      .set('Content-Type', 'application/json')
      .send(JSON.stringify({ blob: 'x'.repeat(64 * 1024) }));
    expect(res.status).toBe(413);
    expect(res.body.error).toBe('payload_too_large');
  });

  it('answers unknown API paths with a 404 JSON error', async () => {
    const res = await request(t.app).get('/api/v1/does-not-exist');
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: 'not_found', message: 'No route for GET /does-not-exist' });
  });

  it('allows CORS only for the web origin', async () => {
    const allowed = await request(t.app).get('/api/v1/tiers').set('Origin', 'http://127.0.0.1:3000');
    expect(allowed.headers['access-control-allow-origin']).toBe('http://127.0.0.1:3000');
    const other = await request(t.app).get('/api/v1/tiers').set('Origin', 'https://evil.example');
    expect(other.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('sends security headers', async () => {
    const res = await request(t.app).get('/api/v1/tiers');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['content-security-policy']).toContain("default-src 'self'");
  });
});
