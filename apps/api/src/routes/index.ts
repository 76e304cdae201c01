import { Router } from 'express';
import type { AppDeps } from '../app.ts';
import { checkHealth } from '../services/health.ts';
import { listTiers } from '../services/tiers.ts';

export function apiRouter(deps: AppDeps): Router {
  const router = Router();

  router.get('/health', async (_req, res) => {
    const health = await checkHealth(deps.prisma, deps.chain);
    res.status(health.database.ok ? 200 : 503).json(health);
  });

  router.get('/tiers', async (_req, res) => {
    res.json(await listTiers(deps.prisma));
  });

  return router;
}
