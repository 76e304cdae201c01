import { fromBaseUnits, type Streamer, type streamerResponseSchema } from '@strm/shared';
import { Router } from 'express';
import type { z } from 'zod';
import type { AppDeps } from '../deps.ts';
import { assertOwnWallet, requireWallet, walletOf } from '../http/auth.ts';
import { isAdmin } from '../services/admins.ts';
import type { Mining } from '../services/mining/index.ts';
import { currentRate } from '../services/streamer/mining-stats.ts';

/**
 * GET /streamer: the signed-in wallet's streamer record (defaults before the first session), isAdmin, and
 * its mining state: the tier active on chain as last verified, when it was activated, the rate due now.
 */
export function streamerRouter(deps: AppDeps, mining: Mining): Router {
  const router = Router();
  router.get('/streamer', requireWallet(deps), async (req, res) => {
    assertOwnWallet(req, req.query.wallet);
    const wallet = walletOf(req);
    const [row, admin] = await Promise.all([
      deps.prisma.streamer.findUnique({ where: { wallet } }),
      isAdmin(deps, wallet),
    ]);
    const rate = currentRate(
      { tiers: mining.tiers, clock: deps.clock },
      row?.tierName ?? null,
      row?.tierActivatedAt ?? null,
    );
    const streamer: Streamer = {
      wallet,
      pendingReward: fromBaseUnits(row?.pendingRewardUnits ?? 0n),
      isAdmin: admin,
      timezone: row?.timezone ?? 'UTC',
      timezoneChangedTimes: row?.timezoneChangedTimes ?? 0,
      timezoneSetAt: row?.timezoneSetAt?.toISOString() ?? null,
      activeTier: row?.tierName ?? null,
      tierActivatedAt: row?.tierActivatedAt?.toISOString() ?? null,
      miningRate: rate.miningRate,
      nextRateIncrease: rate.nextRateIncrease,
      isLive: await mining.engine.liveAnywhere(wallet),
    };
    res.json({ success: true, streamer } satisfies z.input<typeof streamerResponseSchema>);
  });
  return router;
}
