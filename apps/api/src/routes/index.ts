import { faucetRequestSchema } from '@strm/shared';
import { Router } from 'express';
import { rateLimit } from 'express-rate-limit';
import type { AppDeps } from '../app.ts';
import type { Lifecycle } from '../lifecycle.ts';
import { runFaucet } from '../services/faucet.ts';
import { listTiers } from '../services/tiers.ts';
import { healthRouter } from './health.ts';

export function apiRouter(deps: AppDeps, lifecycle: Lifecycle): Router {
  const router = Router();

  router.use(healthRouter(deps, lifecycle));

  router.get('/tiers', async (_req, res) => {
    res.json(await listTiers(deps.prisma));
  });

  router.post(
    '/dev/faucet',
    rateLimit({
      windowMs: 60_000,
      limit: 10,
      message: { error: 'rate_limited', message: 'Too many faucet requests' },
    }),
    async (req, res) => {
      const request = faucetRequestSchema.parse(req.body ?? {});
      res.json(await runFaucet(deps.chain, deps.localChain, request));
    },
  );

  return router;
}
