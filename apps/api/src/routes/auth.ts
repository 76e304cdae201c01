import { type authenticateResponseSchema, nonceQuerySchema, type nonceResponseSchema } from '@strm/shared';
import { Router } from 'express';
import type { z } from 'zod';
import type { AppDeps } from '../deps.ts';
import { authRateLimit, type RateLimitStores } from '../http/rate-limits.ts';
import { authenticate, createNonce, RefusedSignatures } from '../services/auth/sign-in.ts';

export function authRouter(deps: AppDeps, stores: RateLimitStores): Router {
  const router = Router();
  const remembered = deps.metrics?.signInRefusalsRemembered;
  const refused = new RefusedSignatures(() => remembered?.inc());
  // Nonces cost a row each; three per sign-in attempt is plenty.
  router.get(
    '/nonce',
    authRateLimit('nonce', deps.config.authRateLimitPerMinute * 3, stores),
    async (req, res) => {
      const { publicKey } = nonceQuerySchema.parse(req.query);
      res.json((await createNonce(deps, publicKey)) satisfies z.input<typeof nonceResponseSchema>);
    },
  );
  router.post(
    '/authenticate',
    authRateLimit('authenticate', deps.config.authRateLimitPerMinute, stores),
    async (req, res) => {
      const { token } = await authenticate(deps, req.body, refused);
      res.json({ token } satisfies z.input<typeof authenticateResponseSchema>);
    },
  );
  return router;
}
