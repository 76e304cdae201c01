// The calculator's estimate of a tier's hourly rate (spec §5): the web app's own, in whole tokens. The API
// computes the rate it credits in base units (apps/api services/mining/rate.ts).
import { RATE_DOUBLING_DAYS, type Tier } from '@strm/shared';

type RateTier = Pick<Tier, 'hourly_base_rate' | 'hourly_max_rate'>;

/** Hourly rate after `days` days holding the tier: base × 2^floor(days/10), capped at the max. */
export function rateAfterDays(tier: RateTier, days: number): number {
  const doublings = Math.floor(Math.max(0, days) / RATE_DOUBLING_DAYS);
  return Math.min(tier.hourly_base_rate * 2 ** doublings, tier.hourly_max_rate);
}
