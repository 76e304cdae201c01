// The pending-reward adjustment: an admin sets another streamer's pending reward (a raise above the
// approval threshold waits for a second admin), and the admins list and decide the waiting ones.
import {
  adjustmentIdParamsSchema,
  adjustmentListQuerySchema,
  adjustmentListSchema,
  adjustmentSchema,
  pendingRewardRequestSchema,
  pendingRewardResponseSchema,
} from '@strm/shared';
import { Router } from 'express';
import type { z } from 'zod';
import type { AppDeps } from '../deps.ts';
import { DomainError } from '../errors.ts';
import { requireAdmin, walletOf } from '../http/auth.ts';
import { route } from '../http/openapi-route.ts';
import type { Services } from '../services/index.ts';
import {
  type AdjustmentOutcome,
  adjustPendingReward,
  decideAdjustment,
  expireWaitingAdjustments,
  listAdjustments,
} from '../services/streamer/adjustments.ts';

const postPendingReward = route({
  method: 'post',
  path: '/streamer/pending-reward',
  tag: 'Admin',
  summary:
    "Set another streamer's pending reward, with a reason; audited. A raise only for a wallet that has mined, " +
    'within the per-wallet and per-admin daily and 30-day totals; above the approval threshold it waits ' +
    'for a second admin (202)',
  auth: 'admin',
  body: pendingRewardRequestSchema,
  ok: { schema: pendingRewardResponseSchema },
  errors: { 409: 'The streamer is mining, has never mined, or a limit would be passed' },
});

const getAdjustments = route({
  method: 'get',
  path: '/admin/pending-reward-adjustments',
  tag: 'Admin',
  summary: 'Pending-reward adjustments, newest first (those waiting for approval first)',
  auth: 'admin',
  query: adjustmentListQuerySchema,
  ok: { schema: adjustmentListSchema },
});

const decideRoutes = {
  approve: route({
    method: 'post',
    path: '/admin/pending-reward-adjustments/:id/approve',
    tag: 'Admin',
    summary: "Approve another admin's raise (added to the pending reward as it is now); audited",
    auth: 'admin',
    params: adjustmentIdParamsSchema,
    ok: { schema: adjustmentSchema },
    errors: {
      403: 'Your own request, or your own wallet',
      404: 'No such adjustment',
      409: 'Already decided, the streamer is mining, or a limit would be passed',
    },
  }),
  reject: route({
    method: 'post',
    path: '/admin/pending-reward-adjustments/:id/reject',
    tag: 'Admin',
    summary: "Reject another admin's raise; audited",
    auth: 'admin',
    params: adjustmentIdParamsSchema,
    ok: { schema: adjustmentSchema },
    errors: {
      403: 'Your own request, or your own wallet',
      404: 'No such adjustment',
      409: 'Already decided',
    },
  }),
};

export function adjustmentsRouter(
  deps: Pick<AppDeps, 'clock' | 'config' | 'metrics' | 'prisma'>,
  services: Pick<Services, 'engine' | 'streamers'>,
): Router {
  const router = Router();
  const { engine } = services;
  const adjustmentDeps = {
    prisma: deps.prisma,
    streamers: services.streamers,
    clock: deps.clock,
    config: deps.config,
    counted: (outcome: AdjustmentOutcome, raised?: bigint) => {
      deps.metrics?.adjustments.inc({ outcome });
      if (raised) deps.metrics?.adjustmentRaisedUnits.inc(Number(raised));
    },
  };

  postPendingReward(router, requireAdmin(deps), async (req, res) => {
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

  getAdjustments(router, requireAdmin(deps), async (req, res) => {
    const { status } = adjustmentListQuerySchema.parse(req.query);
    await expireWaitingAdjustments(adjustmentDeps);
    const adjustments = await listAdjustments(deps.prisma, { status, limit: 100 });
    res.json({ adjustments } satisfies z.input<typeof adjustmentListSchema>);
  });

  for (const decision of ['approve', 'reject'] as const) {
    decideRoutes[decision](router, requireAdmin(deps), async (req, res) => {
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

  return router;
}
