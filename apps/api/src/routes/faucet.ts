// The dev faucet: SOL and STRM for a wallet, beside the project's local chain only (as routes/index.ts
// mounts it).
import { faucetRequestSchema, faucetResponseSchema } from '@strm/shared';
import { Router } from 'express';
import { rateLimit } from 'express-rate-limit';
import type { z } from 'zod';
import type { AppDeps } from '../deps.ts';
import { route } from '../http/openapi-route.ts';
import { runFaucet } from '../services/faucet.ts';

const postFaucet = route({
  method: 'post',
  path: '/dev/faucet',
  tag: 'Development',
  summary: 'SOL and STRM for a wallet on the local chain',
  auth: 'none',
  body: faucetRequestSchema,
  ok: { schema: faucetResponseSchema },
  only: 'faucet',
});

export function faucetRouter(
  deps: Pick<AppDeps, 'rpc'>,
  localChainInfo: NonNullable<AppDeps['localChainInfo']>,
): Router {
  const router = Router();
  postFaucet(
    router,
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
  return router;
}
