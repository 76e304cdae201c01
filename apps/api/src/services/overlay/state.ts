// What an overlay shows and what a public card shows, read from the same figures as the dashboard's
// mining stats (the open session counted up to now, wherever it runs).
import type { OverlayState, PublicCard, StreamPlatform } from '@strm/shared';
import { miningStats, type StatsDeps } from '../streamer/mining-stats.ts';
import type { OverlayRow } from './store.ts';

export async function overlayState(deps: StatsDeps, row: OverlayRow): Promise<OverlayState> {
  const stats = await miningStats(deps, row.wallet);
  // The open session when live, else the last one: what this (or the last) stream mined.
  const session = stats.recentSessions[0];
  return {
    theme: row.theme,
    status: stats.isLive ? 'mining' : 'ready',
    platform: session?.platform ?? null,
    tier: stats.tier,
    sessionMined: session?.amountMined ?? 0,
    sessionSeconds: session?.duration ?? 0,
    miningRate: stats.miningRate,
    currentDailyDuration: stats.currentDailyDuration,
    dailyLimitSeconds: stats.dailyLimitSeconds,
    nextRateIncrease: stats.nextRateIncrease,
    pendingReward: row.showBalance ? stats.pendingReward : null,
  };
}

const CHANNEL_URL: Record<StreamPlatform, ((username: string) => string) | null> = {
  twitch: (u) => `https://www.twitch.tv/${encodeURIComponent(u)}`,
  tiktok: (u) => `https://www.tiktok.com/@${encodeURIComponent(u)}`,
  youtube: (u) => `https://www.youtube.com/@${encodeURIComponent(u)}`,
  kick: (u) => `https://kick.com/${encodeURIComponent(u)}`,
  demo: null,
};

export async function publicCard(
  deps: StatsDeps,
  row: OverlayRow & { cardSlug: string },
): Promise<PublicCard> {
  const [stats, accounts] = await Promise.all([
    miningStats(deps, row.wallet),
    deps.prisma.platformAccount.findMany({
      where: { wallet: row.wallet, isVerified: true },
      orderBy: { verifiedAt: 'desc' },
    }),
  ]);
  // The channel of the last session, else a verified real platform, else any verified account.
  const last = stats.recentSessions[0]?.platform;
  const account =
    accounts.find((a) => a.platform === last) ?? accounts.find((a) => a.platform !== 'demo') ?? accounts[0];
  return {
    slug: row.cardSlug,
    tier: stats.tier,
    totalMined: stats.totalMined,
    channel: account
      ? {
          platform: account.platform,
          username: account.username,
          url: CHANNEL_URL[account.platform]?.(account.username) ?? null,
        }
      : null,
  };
}
