// The rate rule (ARCHITECTURE.md): at d whole days since activation, min(base × 2^floor(d/10), max) per hour,
// in base units. Deactivating resets it (a new activation starts a new count).
import { RATE_DOUBLING_DAYS, SECONDS_PER_DAY } from '@strm/shared';

const PERIOD_MS = RATE_DOUBLING_DAYS * SECONDS_PER_DAY * 1000;

export interface RateTier {
  hourlyBaseRateUnits: bigint;
  hourlyMaxRateUnits: bigint;
}

/** Optional engagement factor (see engagement.ts), applied before the max cap; 1 means none. */
export interface RateAt {
  /** Base units per hour. */
  rateUnitsPerHour: bigint;
  /** Doublings so far: floor(days / 10). */
  doublings: number;
  /** When the next doubling is due; null once the max is reached. */
  nextRateIncreaseAt: Date | null;
}

export function doublingsAt(activatedAt: Date, now: Date): number {
  const elapsed = now.getTime() - activatedAt.getTime();
  return elapsed <= 0 ? 0 : Math.floor(elapsed / PERIOD_MS);
}

function rateFor(tier: RateTier, doublings: number, boostPermille: number): bigint {
  // 2^k grows past any max quickly; stop doubling once it does (no huge bigints for old activations).
  let rate = tier.hourlyBaseRateUnits;
  for (let i = 0; i < doublings && rate < tier.hourlyMaxRateUnits; i++) rate *= 2n;
  rate = (rate * BigInt(1000 + boostPermille)) / 1000n;
  return rate < tier.hourlyMaxRateUnits ? rate : tier.hourlyMaxRateUnits;
}

/** The rate due at `now` for a tier activated at `activatedAt`, and when it next doubles. */
export function rateAt(tier: RateTier, activatedAt: Date, now: Date, boostPermille = 0): RateAt {
  const doublings = doublingsAt(activatedAt, now);
  const rateUnitsPerHour = rateFor(tier, doublings, boostPermille);
  // The next boundary only matters when doubling would still raise the un-boosted rate.
  const unboosted = rateFor(tier, doublings, 0);
  const nextRateIncreaseAt =
    unboosted >= tier.hourlyMaxRateUnits
      ? null
      : new Date(activatedAt.getTime() + (doublings + 1) * PERIOD_MS);
  return { rateUnitsPerHour, doublings, nextRateIncreaseAt };
}
