import { Validator } from '@seriousme/openapi-schema-validator';
import { Router } from 'express';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildOpenApi, openApiPath } from '../src/http/openapi.ts';
// The route modules declare the operations as they load (http/openapi-route.ts); routes/index.ts loads them all.
import '../src/routes/index.ts';
import { startTestApp, type TestApp } from './support/test-app.ts';

interface Layer {
  route?: { path: string | string[]; methods: Record<string, boolean> };
  handle: { stack?: Layer[] };
  rawPath?: unknown;
  slash?: boolean;
}

/** Every route of an Express app or router as `METHOD path`, following mounted routers and their paths. */
export function expressRoutes(stack: Layer[], prefix = ''): string[] {
  const out: string[] = [];
  for (const layer of stack) {
    if (layer.route) {
      const paths = Array.isArray(layer.route.path) ? layer.route.path : [layer.route.path];
      for (const path of paths) {
        for (const [method, on] of Object.entries(layer.route.methods)) {
          if (on && method !== '_all') out.push(`${method.toUpperCase()} ${prefix}${path}`);
        }
      }
    } else if (layer.handle.stack) {
      if (typeof layer.rawPath !== 'string' && !layer.slash && layer.rawPath !== undefined) {
        throw new Error(`A router mounted on a non-string path (${String(layer.rawPath)}) cannot be listed`);
      }
      const mount = layer.slash || typeof layer.rawPath !== 'string' ? '' : layer.rawPath;
      out.push(...expressRoutes(layer.handle.stack, prefix + mount));
    }
  }
  return out;
}

type Doc = ReturnType<typeof buildOpenApi>;

function documented(doc: Doc, base = '/api/v1'): string[] {
  return Object.entries(doc.paths).flatMap(([path, ops]) =>
    Object.keys(ops).map((method) => `${method.toUpperCase()} ${base}${path}`),
  );
}

function served(app: TestApp['app']): string[] {
  const stack = (app as unknown as { router: { stack: Layer[] } }).router.stack;
  return expressRoutes(stack)
    .filter((r) => r.split(' ')[1]!.startsWith('/api/v1/'))
    .map((r) => {
      const [method, path] = r.split(' ');
      return `${method} ${openApiPath(path!)}`;
    });
}

const sorted = (a: string[]) => [...a].sort();

describe('OpenAPI description', () => {
  let plain: TestApp;
  let demo: TestApp;
  beforeAll(async () => {
    [plain, demo] = await Promise.all([
      startTestApp({ env: { DEMO_PLATFORM: 'off' } }),
      startTestApp({ env: { DEMO_PLATFORM: 'on' } }),
    ]);
  });
  afterAll(async () => {
    await Promise.all([plain?.close(), demo?.close()]);
  });

  it('describes every route the app serves under /api/v1, and nothing else (with and without the demo)', async () => {
    for (const t of [plain, demo]) {
      const res = await request(t.app).get('/api/v1/openapi.json');
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toMatch(/application\/json/);
      const routes = served(t.app);
      expect(routes.length).toBeGreaterThan(30);
      expect(sorted(documented(res.body))).toEqual(sorted(routes));
    }
    const demoDoc = (await request(demo.app).get('/api/v1/openapi.json')).body as Doc;
    expect(demoDoc.paths['/dev/demo/live']).toBeDefined();
    const plainDoc = (await request(plain.app).get('/api/v1/openapi.json')).body as Doc;
    expect(plainDoc.paths['/dev/demo/live']).toBeUndefined();
  });

  it('answers 405 with Allow for a described path asked with another method; 404 elsewhere', async () => {
    const trace = await request(plain.app).trace('/api/v1/tiers');
    expect(trace.status).toBe(405);
    expect(trace.headers.allow).toBe('OPTIONS, GET, HEAD');
    expect(trace.body).toEqual({ error: 'method_not_allowed', message: 'TRACE is not allowed on /tiers' });
    const put = await request(plain.app).put('/api/v1/registrations/me').set('Authorization', 'Bearer x');
    expect(put.status).toBe(405);
    expect((await request(plain.app).trace('/api/v1/nowhere')).status).toBe(404);
  });

  it('the route walk sees a route added to a mounted router', () => {
    const inner = Router();
    inner.get('/x/:id', () => {});
    const outer = Router();
    outer.use(inner);
    outer.use(
      '/nested',
      Router().post('/y', () => {}),
    );
    expect(expressRoutes((outer as unknown as { stack: Layer[] }).stack)).toEqual([
      'GET /x/:id',
      'POST /nested/y',
    ]);
  });

  it('validates against the OpenAPI 3.1 schema, every optional route included', async () => {
    for (const doc of [
      buildOpenApi({ faucet: true, demo: true }),
      (await request(plain.app).get('/api/v1/openapi.json')).body,
    ]) {
      const validator = new Validator();
      const result = await validator.validate(doc);
      expect(result.errors ?? []).toEqual([]);
      expect(result.valid).toBe(true);
      expect(validator.version).toBe('3.1');
    }
  });

  it('names the bearer JWT scheme, the error shape and who may call each operation', () => {
    const doc = buildOpenApi({ faucet: true, demo: true });
    expect(doc.components.securitySchemes.bearerAuth).toMatchObject({
      type: 'http',
      scheme: 'bearer',
      bearerFormat: 'JWT',
    });
    expect(doc.components.schemas.ApiError).toMatchObject({
      type: 'object',
      properties: { error: { type: 'string' }, message: { type: 'string' } },
      required: ['error', 'message'],
    });
    const op = (path: string, method: string) =>
      (doc.paths[path] as Record<string, { security: unknown[]; responses: Record<string, unknown> }>)[
        method
      ]!;
    expect(op('/admin/registrations', 'get').security).toEqual([{ bearerAuth: [] }]);
    expect(Object.keys(op('/admin/registrations', 'get').responses)).toEqual(
      expect.arrayContaining(['200', '400', '401', '403', '429']),
    );
    expect(op('/tiers', 'get').security).toEqual([]);
    expect(op('/registrations', 'post').responses['201']).toBeDefined();
  });
});

describe('API reference page', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t?.close());

  it('serves /api/docs with the renderer from this origin under the CSP', async () => {
    const page = await request(t.app).get('/api/docs');
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toMatch(/text\/html/);
    expect(page.headers['content-security-policy']).toContain("script-src 'self'");
    const scripts = [...page.text.matchAll(/<script[^>]*src="([^"]+)"/g)].map((m) => m[1]);
    expect(scripts).toEqual(['/api/docs/scalar.js', '/api/docs/init.js']);
    expect(page.text).not.toMatch(/https?:\/\//);
    expect(page.text).not.toMatch(/<script>/);
    const bundle = await request(t.app).get('/api/docs/scalar.js');
    expect(bundle.status).toBe(200);
    expect(bundle.headers['content-type']).toMatch(/javascript/);
    expect(Number(bundle.headers['content-length'] ?? bundle.text.length)).toBeGreaterThan(100_000);
    const init = await request(t.app).get('/api/docs/init.js');
    expect(init.text).toContain('"url":"/api/v1/openapi.json"');
    expect(init.text).toContain('"withDefaultFonts":false');
  });
});
