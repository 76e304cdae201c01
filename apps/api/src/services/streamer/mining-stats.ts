// GET /streamer/mining-stats and the mining part of GET /streamer: today's seconds in the streamer's time
// zone, what is left, totals and recent sessions; the open session counted up to now.
import {
  DAILY_LIMIT_WARNING_SECONDS,
  DAILY_MINING_LIMIT_SECONDS,
  fromBaseUnits,
  type MiningStats,
  rateAt,
  SERVER_MESSAGES,
} from '@strm/shared';
import type { Clock } from '../../clock.ts';
import type { StreamerRepository } from '../../db/streamer-repository.ts';
import type { PrismaClient } from '../../db/index.ts';
import { localDay, usedInDay } from '../mining/daily.ts';
import type { MiningEngine } from '../mining/engine.ts';
import type { TierCatalog } from '../tiers/catalog.ts';

export interface StatsDeps {
  prisma: PrismaClient;
  streamers: StreamerRepository;
  clock: Clock;
  tiers: TierCatalog;
  engine: MiningEngine;
}

/** The rate due now for the streamer's active tier and when it next doubles (null without a tier). */
export function currentRate(
  deps: Pick<StatsDeps, 'tiers' | 'clock'>,
  tierName: string | null,
  activatedAt: Date | null,
) {
  const tier = tierName ? deps.tiers.get(tierName) : undefined;
  if (!tier || !activatedAt) return { tier, miningRate: 0, nextRateIncrease: null };
  const due = rateAt(tier, activatedAt, deps.clock.now());
  return {
    tier,
    miningRate: fromBaseUnits(due.rateUnitsPerHour),
    nextRateIncrease: due.nextRateIncreaseAt?.toISOString() ?? null,
  };
}

export async function miningStats(deps: StatsDeps, wallet: string): Promise<MiningStats> {
  const now = deps.clock.now().getTime();
  const streamer = await deps.streamers.streamer(wallet);
  const timezone = streamer?.timezone ?? 'UTC';
  const day = localDay(now, timezone);
  const [todaySessions, totals, collected, recent] = await Promise.all([
    deps.prisma.miningSession.findMany({
      where: { wallet, startedAt: { lt: new Date(day.endMs) }, endedAt: { gt: new Date(day.startMs) } },
      select: { startedAt: true, endedAt: true },
    }),
    deps.prisma.miningSession.aggregate({
      where: { wallet, endedAt: { not: null } },
      _sum: { minedUnits: true },
      _count: true,
    }),
    deps.prisma.rewardClaim.aggregate({
      where: { wallet, status: 'confirmed' },
      _sum: { amountUnits: true },
    }),
    deps.prisma.miningSession.findMany({ where: { wallet }, orderBy: { startedAt: 'desc' }, take: 10 }),
  ]);
  const closedSeconds = await deps.prisma.$queryRaw<{ seconds: number | null }[]>`
    SELECT EXTRACT(EPOCH FROM SUM(ended_at - started_at))::float8 AS seconds
      FROM mining_sessions WHERE wallet = ${wallet} AND ended_at IS NOT NULL`;
  const live = await deps.engine.liveViewAnywhere(wallet);
  const intervals = todaySessions.map((s) => ({
    startMs: s.startedAt.getTime(),
    endMs: (s.endedAt ?? s.startedAt).getTime(),
  }));
  if (live) intervals.push({ startMs: live.startedAt.getTime(), endMs: live.until.getTime() });
  const currentDailyDuration = Math.floor(usedInDay(intervals, day) / 1000);

  const rate = currentRate(deps, streamer?.tierName ?? null, streamer?.tierActivatedAt ?? null);
  const dailyLimitSeconds = rate.tier?.dailyMiningLimitSeconds ?? DAILY_MINING_LIMIT_SECONDS;
  const remaining = Math.max(0, dailyLimitSeconds - currentDailyDuration);
  const dailyStatus =
    remaining === 0 ? 'reached' : remaining < DAILY_LIMIT_WARNING_SECONDS ? 'approaching' : 'ok';
  const liveMined = live?.minedUnits ?? 0n;
  return {
    wallet,
    tier: streamer?.tierName ?? null,
    isLive: live != null,
    miningRate: live ? fromBaseUnits(live.rateUnitsPerHour) : rate.miningRate,
    nextRateIncrease: rate.nextRateIncrease,
    timezone,
    currentDailyDuration,
    dailyLimitSeconds,
    remainingDailySeconds: remaining,
    dailyStatus,
    dailyMessage:
      dailyStatus === 'reached'
        ? SERVER_MESSAGES.dailyLimitTomorrow
        : dailyStatus === 'approaching'
          ? SERVER_MESSAGES.approachingDailyLimit
          : null,
    pendingReward: fromBaseUnits(streamer?.pendingRewardUnits ?? 0n),
    totalMined: fromBaseUnits((totals._sum.minedUnits ?? 0n) + liveMined),
    totalCollected: fromBaseUnits(collected._sum.amountUnits ?? 0n),
    totalSeconds: Math.floor(
      (closedSeconds[0]?.seconds ?? 0) +
        (live ? (live.until.getTime() - live.startedAt.getTime()) / 1000 : 0),
    ),
    sessionCount: totals._count + (live ? 1 : 0),
    recentSessions: recent.map((s) => {
      const open = s.endedAt == null && live != null;
      const end = s.endedAt ?? (open ? live.until : s.accruedUntil);
      return {
        platform: s.platform,
        tier: s.tierName,
        miningRate: fromBaseUnits(s.rateUnitsPerHour),
        startedAt: s.startedAt.toISOString(),
        endedAt: s.endedAt?.toISOString() ?? null,
        duration: Math.floor((end.getTime() - s.startedAt.getTime()) / 1000),
        amountMined: fromBaseUnits(open ? live.minedUnits : s.minedUnits),
        endReason: s.endReason,
      };
    }),
  };
}
