import { fromBaseUnits, type Streamer } from '@strm/shared';
import { Router } from 'express';
import type { AppDeps } from '../deps.ts';
import { assertOwnWallet, requireWallet, walletOf } from '../http/auth.ts';
import { isAdmin } from '../services/admins.ts';

/** GET /streamer: the signed-in wallet's streamer record (defaults before the first session) and isAdmin. */
export function streamerRouter(deps: AppDeps): Router {
  const router = Router();
  router.get('/streamer', requireWallet(deps), async (req, res) => {
    assertOwnWallet(req, req.query.wallet);
    const wallet = walletOf(req);
    const [row, admin] = await Promise.all([
      deps.prisma.streamer.findUnique({ where: { wallet } }),
      isAdmin(deps, wallet),
    ]);
    const streamer: Streamer = {
      wallet,
      pendingReward: fromBaseUnits(row?.pendingRewardUnits ?? 0n),
      isAdmin: admin,
      timezone: row?.timezone ?? 'UTC',
      timezoneChangedTimes: row?.timezoneChangedTimes ?? 0,
    };
    res.json({ success: true, streamer });
  });
  return router;
}
