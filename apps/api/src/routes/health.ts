import type { healthSchema, liveHealthSchema, readyHealthSchema } from '@strm/shared';
import { Router } from 'express';
import type { z } from 'zod';
import type { AppDeps } from '../deps.ts';
import type { Lifecycle } from '../lifecycle.ts';
import { checkHealth } from '../services/health.ts';

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

  router.get('/health', async (_req, res) => {
    const health = await checkHealth(deps);
    res.status(health.database.ok ? 200 : 503).json(health satisfies z.input<typeof healthSchema>);
  });

  router.get('/health/live', (_req, res) => {
    res.json({ status: 'ok' } satisfies z.input<typeof liveHealthSchema>);
  });

  router.get('/health/ready', async (_req, res) => {
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
