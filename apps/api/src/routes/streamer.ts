import type { streamerResponseSchema } from '@strm/shared';
import { Router } from 'express';
import type { z } from 'zod';
import type { AppDeps } from '../deps.ts';
import { assertOwnWallet, requireWallet, walletOf } from '../http/auth.ts';
import type { Mining } from '../services/mining/index.ts';
import { streamerProfile } from '../services/streamer/profile.ts';

/**
 * GET /streamer: the signed-in wallet's streamer record (defaults before the first session), isAdmin, and
 * its mining state: the tier active on chain as last verified, when it was activated, the rate due now.
 */
export function streamerRouter(deps: AppDeps, mining: Mining): Router {
  const router = Router();
  router.get('/streamer', requireWallet(deps), async (req, res) => {
    assertOwnWallet(req, req.query.wallet);
    const streamer = await streamerProfile(
      {
        admins: deps,
        streamers: mining.streamers,
        tiers: mining.tiers,
        clock: deps.clock,
        isLive: (wallet) => mining.engine.liveAnywhere(wallet),
      },
      walletOf(req),
    );
    res.json({ success: true, streamer } satisfies z.input<typeof streamerResponseSchema>);
  });
  return router;
}
