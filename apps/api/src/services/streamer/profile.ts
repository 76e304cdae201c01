// GET /streamer: the wallet's streamer record (defaults before its first session), whether it is an admin,
// and its mining state: the tier active on chain as last verified, when it was activated, the rate due now.
import { fromBaseUnits, type Streamer } from '@strm/shared';
import type { Clock } from '../../clock.ts';
import { type AdminDeps, isAdmin } from '../admins.ts';
import type { TierCatalog } from '../tiers/catalog.ts';
import { currentRate } from './mining-stats.ts';
import type { StreamerRepository } from '../../db/streamer-repository.ts';

export interface ProfileDeps {
  admins: AdminDeps;
  streamers: StreamerRepository;
  tiers: TierCatalog;
  clock: Clock;
  isLive(wallet: string): Promise<boolean>;
}

export async function streamerProfile(deps: ProfileDeps, wallet: string): Promise<Streamer> {
  const [row, admin] = await Promise.all([deps.streamers.streamer(wallet), isAdmin(deps.admins, wallet)]);
  const rate = currentRate(deps, row?.tierName ?? null, row?.tierActivatedAt ?? null);
  return {
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
    isLive: await deps.isLive(wallet),
  };
}
