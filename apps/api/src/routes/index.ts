// The REST API under /api/v1: one routes file per resource, each declaring its routes' OpenAPI operations
// beside them (http/openapi-route.ts). The route modules are imported in the order the description lists
// their operations (each declares its own as it loads).
import { Router } from 'express';
import type { AppDeps } from '../deps.ts';
import { methodNotAllowed } from '../http/openapi.ts';
import type { RateLimitStores } from '../http/rate-limits.ts';
import type { Lifecycle } from '../lifecycle.ts';
import type { Services } from '../services/index.ts';
import { healthRouter } from './health.ts';
import { openApiRouter } from './openapi.ts';
import { tiersRouter } from './tiers.ts';
import { faucetRouter } from './faucet.ts';
import { authRouter } from './auth.ts';
import { registrationsRouter } from './registrations.ts';
import { maintenanceRouter } from './maintenance.ts';
import { marketRouter } from './market.ts';
import { streamerRouter } from './streamer.ts';
import { adjustmentsRouter } from './adjustments.ts';
import { demoRouter } from './demo.ts';
import { platformsRouter } from './platforms.ts';
import { adminRouter } from './admin.ts';
import { overlayRouter } from './overlay.ts';
import { oauthPlatformsRouter } from './oauth-platforms.ts';

export function apiRouter(
  deps: AppDeps,
  lifecycle: Lifecycle,
  services: Services,
  stores: RateLimitStores,
): Router {
  const router = Router();

  router.use(healthRouter(deps, lifecycle));
  router.use(tiersRouter(services));

  const { localChainInfo } = deps;
  const features = {
    faucet: Boolean(localChainInfo && deps.config.faucet),
    demo: Boolean(services.platforms.demo),
  };
  router.use(openApiRouter(features));
  if (localChainInfo && deps.config.faucet) router.use(faucetRouter(deps, localChainInfo));

  router.use(authRouter(deps, stores));
  router.use(registrationsRouter(deps));
  router.use(maintenanceRouter(deps, services));
  router.use(marketRouter(deps, services));
  router.use(streamerRouter(deps, services));
  router.use(adjustmentsRouter(deps, services));
  router.use(demoRouter(deps, services));
  router.use(platformsRouter(deps, services));
  router.use(oauthPlatformsRouter(deps, services));
  router.use(adminRouter(deps, services.access));
  router.use(overlayRouter(deps, services.overlays, services.access));
  router.use(methodNotAllowed(features));

  return router;
}
