// The landing page's market statistics and the web app's deployment settings.
import type { clientConfigSchema, marketResponseSchema } from '@strm/shared';
import { Router } from 'express';
import type { z } from 'zod';
import type { AppDeps } from '../deps.ts';
import { MarketService } from '../services/market.ts';

export function marketRouter(deps: AppDeps, market?: MarketService): Router {
  const router = Router();
  const service =
    market ??
    new MarketService({
      pairApiUrl: deps.config.market.pairApiUrl,
      refreshMs: deps.config.market.refreshMs,
      clock: deps.clock,
      logger: deps.logger,
    });

  router.get('/market', async (_req, res) => {
    res.json((await service.get()) satisfies z.input<typeof marketResponseSchema>);
  });

  router.get('/client-config', (_req, res) => {
    res.json({
      rpcUrl: deps.config.publicSolanaRpcUrl ?? deps.rpc.rpcUrl,
      demoPlatform: deps.config.demoPlatform,
      oauthPlatforms: {
        youtube: Boolean(deps.config.platforms.youtube.clientId),
        kick: Boolean(deps.config.platforms.kick.clientId),
      },
      links: deps.config.links,
    } satisfies z.input<typeof clientConfigSchema>);
  });

  return router;
}
