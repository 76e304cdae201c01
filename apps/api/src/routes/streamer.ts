// The signed-in streamer: its record and mining state, its mining statistics, its time zone. (Its overlay
// and public card are routes/overlay.ts's; the admins' pending-reward adjustment, routes/adjustments.ts's.)
import {
  miningStatsSchema,
  streamerResponseSchema,
  timezoneRequestSchema,
  timezoneResponseSchema,
  walletQuerySchema,
} from '@strm/shared';
import { Router } from 'express';
import type { z } from 'zod';
import type { AppDeps } from '../deps.ts';
import { assertOwnWallet, requireAccess, requireWallet, walletOf } from '../http/auth.ts';
import { route } from '../http/openapi-route.ts';
import type { Services } from '../services/index.ts';
import { miningStats } from '../services/streamer/mining-stats.ts';
import { streamerProfile } from '../services/streamer/profile.ts';
import { changeTimezone } from '../services/streamer/settings.ts';

/**
 * GET /streamer: the signed-in wallet's streamer record (defaults before the first session), isAdmin, and
 * its mining state: the tier active on chain as last verified, when it was activated, the rate due now.
 */
const getStreamer = route({
  method: 'get',
  path: '/streamer',
  tag: 'Streamer',
  summary: "The signed-in wallet's streamer record, admin flag and mining state",
  auth: 'wallet',
  query: walletQuerySchema.partial(),
  ok: { schema: streamerResponseSchema },
});

const getMiningStats = route({
  method: 'get',
  path: '/streamer/mining-stats',
  tag: 'Streamer',
  summary: "The signed-in wallet's mining statistics and recent sessions",
  auth: 'wallet',
  query: walletQuerySchema.partial(),
  ok: { schema: miningStatsSchema },
});

const putTimezone = route({
  method: 'put',
  path: '/streamer/timezone',
  tag: 'Streamer',
  summary: "Set the streamer's time zone (changes are limited)",
  auth: 'wallet',
  body: timezoneRequestSchema,
  ok: { schema: timezoneResponseSchema },
  errors: { 409: 'No change left, or the streamer is live' },
});

export function streamerRouter(
  deps: Pick<AppDeps, 'clock' | 'config' | 'prisma'>,
  services: Pick<Services, 'engine' | 'streamers' | 'tiers' | 'access'>,
): Router {
  const router = Router();
  const { engine } = services;
  const signedIn = requireAccess(deps, services.access);

  getStreamer(router, requireWallet(deps), async (req, res) => {
    assertOwnWallet(req, req.query.wallet);
    const streamer = await streamerProfile(
      {
        admins: deps,
        streamers: services.streamers,
        tiers: services.tiers,
        clock: deps.clock,
        isLive: (wallet) => engine.liveAnywhere(wallet),
      },
      walletOf(req),
    );
    res.json({ success: true, streamer } satisfies z.input<typeof streamerResponseSchema>);
  });

  getMiningStats(router, signedIn, async (req, res) => {
    assertOwnWallet(req, walletQuerySchema.partial().parse(req.query).wallet);
    const stats = await miningStats(
      {
        prisma: deps.prisma,
        streamers: services.streamers,
        clock: deps.clock,
        tiers: services.tiers,
        engine,
      },
      walletOf(req),
    );
    res.json(stats satisfies z.input<typeof miningStatsSchema>);
  });

  putTimezone(router, signedIn, async (req, res) => {
    const { timezone } = timezoneRequestSchema.parse(req.body ?? {});
    const result = await changeTimezone(
      {
        prisma: deps.prisma,
        streamers: services.streamers,
        clock: deps.clock,
        isLive: (w) => engine.liveAnywhere(w),
      },
      walletOf(req),
      timezone,
    );
    res.json({ success: true, ...result } satisfies z.input<typeof timezoneResponseSchema>);
  });
  return router;
}
