import { SECONDS_PER_HOUR, type Tier } from '@strm/shared';

const DAYS_PER_MONTH = 30;

/** Calculator: daily earnings = hours per day × rate; monthly = 30 × daily. */
export function calculatorEarnings(hoursPerDay: number, rate: number): { daily: number; monthly: number } {
  const daily = hoursPerDay * rate;
  return { daily, monthly: DAYS_PER_MONTH * daily };
}

/** Dashboard: daily earnings use the tier's whole daily limit in hours. */
export function dashboardEarnings(
  tier: Pick<Tier, 'daily_mining_limit_seconds'>,
  rate: number,
): { daily: number; monthly: number } {
  return calculatorEarnings(tier.daily_mining_limit_seconds / SECONDS_PER_HOUR, rate);
}

/** Icon group (1, 2 or 3) for a tier by its position: tiers 1-3, 4-6, 7-9. */
export function tierIconGroup(orderBy: number): 1 | 2 | 3 {
  if (orderBy <= 3) return 1;
  if (orderBy <= 6) return 2;
  return 3;
}

/** 'Best Value' goes to the tier with the highest order_by; also the calculator's preselection. */
export function bestValueTier<T extends Pick<Tier, 'order_by'>>(tiers: readonly T[]): T | undefined {
  return tiers.reduce<T | undefined>(
    (best, t) => (best === undefined || t.order_by > best.order_by ? t : best),
    undefined,
  );
}
