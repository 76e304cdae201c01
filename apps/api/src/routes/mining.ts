// The mining REST endpoints: stats, the streamer's time zone, the admins' pending-reward adjustment, and
// (local configurations only) the demo platform's account and live toggle.
import {
  demoAccountRequestSchema,
  type demoAccountResponseSchema,
  demoLiveRequestSchema,
  type demoLiveResponseSchema,
  type miningStatsSchema,
  pendingRewardRequestSchema,
  type pendingRewardResponseSchema,
  timezoneRequestSchema,
  type timezoneResponseSchema,
  walletQuerySchema,
  adjustmentListQuerySchema,
  type adjustmentListSchema,
  type adjustmentSchema,
  adjustmentIdParamsSchema,
} from '@strm/shared';
import { Router } from 'express';
import type { z } from 'zod';
import type { AppDeps } from '../deps.ts';
import { DomainError } from '../errors.ts';
import { assertOwnWallet, requireAccess, requireAdmin, walletOf } from '../http/auth.ts';
import type { AccessControl } from '../services/access.ts';
import type { Mining } from '../services/mining/index.ts';
import { createDemoAccount, verifiedDemoAccount } from '../services/platforms/demo-account.ts';
import { miningStats } from '../services/streamer/mining-stats.ts';
import {
  type AdjustmentOutcome,
  adjustPendingReward,
  decideAdjustment,
  listAdjustments,
} from '../services/streamer/adjustments.ts';
import { changeTimezone } from '../services/streamer/settings.ts';

export function miningRouter(deps: AppDeps, mining: Mining, access: AccessControl): Router {
  const router = Router();
  const { engine } = mining;
  const adjustmentDeps = {
    prisma: deps.prisma,
    clock: deps.clock,
    config: deps.config,
    counted: (outcome: AdjustmentOutcome, raised?: bigint) => {
      deps.metrics?.adjustments.inc({ outcome });
      if (raised) deps.metrics?.adjustmentRaisedUnits.inc(Number(raised));
    },
  };
  const signedIn = requireAccess(deps, access);

  router.get('/streamer/mining-stats', signedIn, async (req, res) => {
    assertOwnWallet(req, walletQuerySchema.partial().parse(req.query).wallet);
    const stats = await miningStats(
      { prisma: deps.prisma, clock: deps.clock, tiers: mining.tiers, engine },
      walletOf(req),
    );
    res.json(stats satisfies z.input<typeof miningStatsSchema>);
  });

  router.put('/streamer/timezone', signedIn, async (req, res) => {
    const { timezone } = timezoneRequestSchema.parse(req.body ?? {});
    const result = await changeTimezone(
      { prisma: deps.prisma, clock: deps.clock, isLive: (w) => engine.liveAnywhere(w) },
      walletOf(req),
      timezone,
    );
    res.json({ success: true, ...result } satisfies z.input<typeof timezoneResponseSchema>);
  });

  router.post('/streamer/pending-reward', requireAdmin(deps), async (req, res) => {
    const input = pendingRewardRequestSchema.parse(req.body ?? {});
    if (await engine.liveAnywhere(input.wallet)) {
      throw new DomainError('streamer_live', 'Cannot adjust the pending reward while the streamer is mining');
    }
    const adjusted = await adjustPendingReward(adjustmentDeps, {
      admin: walletOf(req),
      ...input,
    });
    // Waiting for a second admin: accepted, not done.
    res
      .status(adjusted.status === 'pending_approval' ? 202 : 200)
      .json({ success: true, ...adjusted } satisfies z.input<typeof pendingRewardResponseSchema>);
  });

  router.get('/admin/pending-reward-adjustments', requireAdmin(deps), async (req, res) => {
    const { status } = adjustmentListQuerySchema.parse(req.query);
    const adjustments = await listAdjustments(deps.prisma, { status, limit: 100 });
    res.json({ adjustments } satisfies z.input<typeof adjustmentListSchema>);
  });

  for (const decision of ['approve', 'reject'] as const) {
    router.post(`/admin/pending-reward-adjustments/:id/${decision}`, requireAdmin(deps), async (req, res) => {
      const { id } = adjustmentIdParamsSchema.parse(req.params);
      const decided = await decideAdjustment(adjustmentDeps, {
        admin: walletOf(req),
        id,
        approve: decision === 'approve',
        isLive: (wallet) => engine.liveAnywhere(wallet),
      });
      res.json(decided satisfies z.input<typeof adjustmentSchema>);
    });
  }

  const demo = mining.demo;
  if (demo) {
    const demoDeps = {
      streamers: mining.streamers,
      clock: deps.clock,
      isLive: (wallet: string) => engine.liveAnywhere(wallet),
    };
    router.post('/dev/demo/account', signedIn, async (req, res) => {
      const { username } = demoAccountRequestSchema.parse(req.body ?? {});
      const account = await createDemoAccount(demoDeps, walletOf(req), username);
      res.json({
        success: true,
        platform: 'demo',
        username: account.username,
        isVerified: true,
      } satisfies z.input<typeof demoAccountResponseSchema>);
    });

    router.put('/dev/demo/live', signedIn, async (req, res) => {
      const { live, viewers } = demoLiveRequestSchema.parse(req.body ?? {});
      const account = await verifiedDemoAccount(demoDeps, walletOf(req));
      res.json({
        success: true,
        username: account.username,
        ...(await demo.set(account.username, live, viewers)),
      } satisfies z.input<typeof demoLiveResponseSchema>);
    });
  }
  return router;
}
