// The landing page's market statistics and the web app's deployment settings.
import { clientConfigSchema, marketResponseSchema } from '@strm/shared';
import { Router } from 'express';
import type { z } from 'zod';
import type { AppDeps } from '../deps.ts';
import { route } from '../http/openapi-route.ts';
import type { Services } from '../services/index.ts';

const getMarket = route({
  method: 'get',
  path: '/market',
  tag: 'Market',
  summary: "The token's market statistics (cached)",
  auth: 'none',
  ok: { schema: marketResponseSchema },
});

const getClientConfig = route({
  method: 'get',
  path: '/client-config',
  tag: 'Market',
  summary: "This deployment's settings for the web app",
  auth: 'none',
  ok: { schema: clientConfigSchema },
});

export function marketRouter(
  deps: Pick<AppDeps, 'config' | 'rpc'>,
  services: Pick<Services, 'market'>,
): Router {
  const router = Router();
  const service = services.market;

  getMarket(router, async (_req, res) => {
    res.json((await service.get()) satisfies z.input<typeof marketResponseSchema>);
  });

  getClientConfig(router, (_req, res) => {
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
