import { healthSchema, liveHealthSchema, readyHealthSchema } from '@strm/shared';
import { Router } from 'express';
import type { z } from 'zod';
import type { AppDeps } from '../deps.ts';
import { route } from '../http/openapi-route.ts';
import type { Lifecycle } from '../lifecycle.ts';
import { checkHealth } from '../services/health.ts';

const getHealth = route({
  method: 'get',
  path: '/health',
  tag: 'Health',
  summary: 'The database and the chain (503 without the database)',
  auth: 'none',
  ok: { schema: healthSchema },
  errors: { 503: 'The database is unreachable' },
});

const getLive = route({
  method: 'get',
  path: '/health/live',
  tag: 'Health',
  summary: 'The process answers',
  auth: 'none',
  ok: { schema: liveHealthSchema },
});

const getReady = route({
  method: 'get',
  path: '/health/ready',
  tag: 'Health',
  summary: 'Ready for traffic (503 while shutting down or without the database)',
  auth: 'none',
  ok: { schema: readyHealthSchema },
  errors: { 503: 'Shutting down or without its database' },
});

/**
 * `/health`: the database and the chain, for people. `/health/live`: the process answers (restart it when it
 * does not). `/health/ready`: send it traffic; false while shutting down or without its database. The chain
 * is reported but does not gate readiness: every instance shares it, so taking them all out would not help.
 */
export function healthRouter(
  deps: Pick<AppDeps, 'prisma' | 'rpc' | 'dependencies' | 'logger'>,
  lifecycle: Lifecycle,
): Router {
  const router = Router();

  getHealth(router, async (_req, res) => {
    const health = await checkHealth(deps);
    res.status(health.database.ok ? 200 : 503).json(health satisfies z.input<typeof healthSchema>);
  });

  getLive(router, (_req, res) => {
    res.json({ status: 'ok' } satisfies z.input<typeof liveHealthSchema>);
  });

  getReady(router, async (_req, res) => {
    if (!lifecycle.accepting) {
      res.status(503).json({ status: 'shutting_down' } satisfies z.input<typeof readyHealthSchema>);
      return;
    }
    const health = await checkHealth(deps);
    res.status(health.database.ok ? 200 : 503).json({
      ...health,
      status: health.database.ok ? 'ready' : 'not_ready',
    } satisfies z.input<typeof readyHealthSchema>);
  });

  return router;
}
