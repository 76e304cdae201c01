// The landing page's market statistics and the web app's deployment settings.
import type { ClientConfig, MarketResponse } from '@strm/shared';
import { Router } from 'express';
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
    const answer: MarketResponse = await service.get();
    res.json(answer);
  });

  router.get('/client-config', (_req, res) => {
    const answer: ClientConfig = {
      rpcUrl: deps.config.publicSolanaRpcUrl ?? deps.chain.rpcUrl,
      demoPlatform: deps.config.demoPlatform,
      links: deps.config.links,
    };
    res.json(answer);
  });

  return router;
}
