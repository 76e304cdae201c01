import { faucetRequestSchema, type faucetResponseSchema } from '@strm/shared';
import { Router } from 'express';
import type { z } from 'zod';
import { rateLimit } from 'express-rate-limit';
import type { AppDeps } from '../deps.ts';
import { buildOpenApi, methodNotAllowed } from '../http/openapi.ts';
import type { RateLimitStores } from '../http/rate-limits.ts';
import type { Lifecycle } from '../lifecycle.ts';
import type { AccessControl } from '../services/access.ts';
import { runFaucet } from '../services/faucet.ts';
import type { Mining } from '../services/mining/index.ts';
import type { OverlayService } from '../services/overlay/index.ts';
import { adminRouter } from './admin.ts';
import { authRouter } from './auth.ts';
import { healthRouter } from './health.ts';
import { maintenanceRouter } from './maintenance.ts';
import { marketRouter } from './market.ts';
import { miningRouter } from './mining.ts';
import { overlayRouter } from './overlay.ts';
import { platformsRouter } from './platforms.ts';
import { oauthPlatformsRouter } from './oauth-platforms.ts';
import { registrationsRouter } from './registrations.ts';
import { streamerRouter } from './streamer.ts';

export function apiRouter(
  deps: AppDeps,
  lifecycle: Lifecycle,
  mining: Mining,
  guards: { access: AccessControl; stores: RateLimitStores; overlays: OverlayService },
): Router {
  const router = Router();

  router.use(healthRouter(deps, lifecycle));

  // Served from memory (deposits from the chain's config, the rest from the database), serialised once.
  router.get('/tiers', (_req, res) => {
    res.type('application/json').send(mining.tiers.json());
  });

  const { localChainInfo } = deps;
  const features = { faucet: Boolean(localChainInfo && deps.config.faucet), demo: Boolean(mining.demo) };
  const openApi = JSON.stringify(buildOpenApi(features));
  router.get('/openapi.json', (_req, res) => {
    res.type('application/json').send(openApi);
  });
  if (localChainInfo && deps.config.faucet) {
    router.post(
      '/dev/faucet',
      rateLimit({
        windowMs: 60_000,
        limit: 10,
        message: { error: 'rate_limited', message: 'Too many faucet requests' },
      }),
      async (req, res) => {
        const request = faucetRequestSchema.parse(req.body ?? {});
        res.json(
          (await runFaucet(deps.rpc, localChainInfo, request)) satisfies z.input<typeof faucetResponseSchema>,
        );
      },
    );
  }

  router.use(authRouter(deps, guards.stores));
  router.use(registrationsRouter(deps));
  router.use(maintenanceRouter(deps));
  router.use(marketRouter(deps));
  router.use(streamerRouter(deps, mining));
  router.use(miningRouter(deps, mining, guards.access));
  router.use(platformsRouter(deps, mining, guards.access));
  router.use(oauthPlatformsRouter(deps, mining, guards.access));
  router.use(adminRouter(deps, guards.access));
  router.use(overlayRouter(deps, guards.overlays, guards.access));
  router.use(methodNotAllowed(features));

  return router;
}
