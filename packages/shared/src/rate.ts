// The rate rule, written once for the API (what it credits) and the web calculator (what it estimates): at
// d whole days since activation, min(base × 2^floor(d/10), max) per hour, in base units (TOKEN_DECIMALS).
// An engagement boost, when given, applies before the max cap. Deactivating resets the count (a new
// activation starts a new one).
import { RATE_DOUBLING_DAYS, SECONDS_PER_DAY } from './constants.ts';

const PERIOD_MS = RATE_DOUBLING_DAYS * SECONDS_PER_DAY * 1000;

/** A tier's hourly rates in base units. */
export interface RateTier {
  hourlyBaseRateUnits: bigint;
  hourlyMaxRateUnits: bigint;
}

export interface RateAt {
  /** Base units per hour. */
  rateUnitsPerHour: bigint;
  /** Doublings so far: floor(days / 10). */
  doublings: number;
  /** When the next doubling is due; null once the max is reached. */
  nextRateIncreaseAt: Date | null;
}

/** Doublings after `days` days holding the tier: whole 10-day periods, none before the activation. */
export function doublingsAfterDays(days: number): number {
  return days <= 0 ? 0 : Math.floor(days / RATE_DOUBLING_DAYS);
}

/** Doublings at `now` for a tier activated at `activatedAt` (whole periods of elapsed milliseconds). */
export function doublingsAt(activatedAt: Date, now: Date): number {
  const elapsed = now.getTime() - activatedAt.getTime();
  return elapsed <= 0 ? 0 : Math.floor(elapsed / PERIOD_MS);
}

/**
 * Base units per hour after `doublings` doublings: base × 2^doublings, times the optional engagement boost
 * (permille; 0 means none), capped at the max.
 */
export function hourlyRateUnits(tier: RateTier, doublings: number, boostPermille = 0): bigint {
  // 2^k grows past any max quickly; stop doubling once it does (no huge bigints for old activations).
  let rate = tier.hourlyBaseRateUnits;
  for (let i = 0; i < doublings && rate < tier.hourlyMaxRateUnits; i++) rate *= 2n;
  rate = (rate * BigInt(1000 + boostPermille)) / 1000n;
  return rate < tier.hourlyMaxRateUnits ? rate : tier.hourlyMaxRateUnits;
}

/** The rate due at `now` for a tier activated at `activatedAt`, and when it next doubles. */
export function rateAt(tier: RateTier, activatedAt: Date, now: Date, boostPermille = 0): RateAt {
  const doublings = doublingsAt(activatedAt, now);
  const rateUnitsPerHour = hourlyRateUnits(tier, doublings, boostPermille);
  // The next boundary only matters when doubling would still raise the un-boosted rate.
  const unboosted = hourlyRateUnits(tier, doublings, 0);
  const nextRateIncreaseAt =
    unboosted >= tier.hourlyMaxRateUnits
      ? null
      : new Date(activatedAt.getTime() + (doublings + 1) * PERIOD_MS);
  return { rateUnitsPerHour, doublings, nextRateIncreaseAt };
}
