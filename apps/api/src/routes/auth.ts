import {
  authenticateRequestSchema,
  authenticateResponseSchema,
  nonceQuerySchema,
  nonceResponseSchema,
} from '@strm/shared';
import { Router } from 'express';
import type { z } from 'zod';
import type { AppDeps } from '../deps.ts';
import { route } from '../http/openapi-route.ts';
import { authRateLimit, type RateLimitStores } from '../http/rate-limits.ts';
import { authenticate, createNonce, RefusedSignatures } from '../services/auth/sign-in.ts';

const getNonce = route({
  method: 'get',
  path: '/nonce',
  tag: 'Sign-in',
  summary: 'A single-use nonce and the Sign-In-With-Solana message to sign',
  auth: 'none',
  query: nonceQuerySchema,
  ok: { schema: nonceResponseSchema },
  errors: { 401: 'Not a valid public key (it does not decode to 32 bytes)' },
});

const postAuthenticate = route({
  method: 'post',
  path: '/authenticate',
  tag: 'Sign-in',
  summary: 'Exchange the signed message for a session token (bearer JWT)',
  auth: 'none',
  body: authenticateRequestSchema,
  ok: { schema: authenticateResponseSchema },
  errors: { 401: 'The nonce or the signature is refused' },
});

export function authRouter(
  deps: Pick<AppDeps, 'clock' | 'config' | 'localChainInfo' | 'metrics' | 'prisma' | 'rpc'>,
  stores: RateLimitStores,
): Router {
  const router = Router();
  const remembered = deps.metrics?.signInRefusalsRemembered;
  const refused = new RefusedSignatures(() => remembered?.inc());
  // Nonces cost a row each; three per sign-in attempt is plenty.
  getNonce(
    router,
    authRateLimit('nonce', deps.config.authRateLimitPerMinute * 3, stores),
    async (req, res) => {
      const { publicKey } = nonceQuerySchema.parse(req.query);
      res.json((await createNonce(deps, publicKey)) satisfies z.input<typeof nonceResponseSchema>);
    },
  );
  postAuthenticate(
    router,
    authRateLimit('authenticate', deps.config.authRateLimitPerMinute, stores),
    async (req, res) => {
      const { token } = await authenticate(deps, req.body, refused);
      res.json({ token } satisfies z.input<typeof authenticateResponseSchema>);
    },
  );
  return router;
}
