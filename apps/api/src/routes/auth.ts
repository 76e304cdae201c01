import { walletSchema } from '@strm/shared';
import { Router } from 'express';
import { z } from 'zod';
import type { AppDeps } from '../deps.ts';
import { authRateLimit } from '../http/rate-limits.ts';
import { authenticate, createNonce } from '../services/auth/sign-in.ts';

const nonceQuerySchema = z.object({ publicKey: walletSchema });

export function authRouter(deps: AppDeps): Router {
  const router = Router();
  // Nonces cost a row each; three per sign-in attempt is plenty.
  router.get('/nonce', authRateLimit(deps.config.authRateLimitPerMinute * 3), async (req, res) => {
    const { publicKey } = nonceQuerySchema.parse(req.query);
    res.json(await createNonce(deps, publicKey));
  });
  router.post('/authenticate', authRateLimit(deps.config.authRateLimitPerMinute), async (req, res) => {
    const { token } = await authenticate(deps, req.body);
    res.json({ token });
  });
  return router;
}
