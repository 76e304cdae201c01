import {
  BASE_UNITS_PER_TOKEN,
  CALCULATOR,
  DAYS_PER_MONTH,
  HOLDER_TIER_THRESHOLDS,
  RATE_DOUBLING_DAYS,
  SECONDS_PER_DAY,
  SECONDS_PER_HOUR,
  TOKEN_DECIMALS,
} from './constants.ts';
import type { Tier } from './tiers.ts';

export type HolderTier = 'starter' | 'pro' | 'elite';

/** Holder tier from a token balance in whole tokens (no token account reads as 0: starter). */
export function holderTier(balance: number): HolderTier {
  if (balance >= HOLDER_TIER_THRESHOLDS.elite) return 'elite';
  if (balance >= HOLDER_TIER_THRESHOLDS.pro) return 'pro';
  return 'starter';
}

type RateTier = Pick<Tier, 'hourly_base_rate' | 'hourly_max_rate'>;

/** Number of rate doublings after `days` whole days active: floor(days / 10). */
export function doublings(days: number): number {
  return Math.floor(Math.max(0, days) / RATE_DOUBLING_DAYS);
}

/** Hourly rate after `days` days holding the tier: base × 2^floor(days/10), capped at the max. */
export function rateAfterDays(tier: RateTier, days: number): number {
  return Math.min(tier.hourly_base_rate * 2 ** doublings(days), tier.hourly_max_rate);
}

/** The rate that follows `current`: double it, capped at the max. */
export function nextRate(current: number, max: number): number {
  return Math.min(current * 2, max);
}

/**
 * When the rate next doubles for a tier activated at `activatedAt`, or null once the max is reached.
 */
export function nextRateIncreaseAt(tier: RateTier, activatedAt: Date, now: Date): Date | null {
  const days = Math.floor((now.getTime() - activatedAt.getTime()) / (SECONDS_PER_DAY * 1000));
  if (rateAfterDays(tier, days) >= tier.hourly_max_rate) return null;
  const periods = doublings(days) + 1;
  return new Date(activatedAt.getTime() + periods * RATE_DOUBLING_DAYS * SECONDS_PER_DAY * 1000);
}

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

/** The calculator's hour bounds for a tier (max falls back to 8 when no tier is known). */
export function hoursPerDayBounds(tier?: Pick<Tier, 'daily_mining_limit_seconds'>): {
  min: number;
  max: number;
} {
  const max = tier ? tier.daily_mining_limit_seconds / SECONDS_PER_HOUR : CALCULATOR.fallbackMaxHoursPerDay;
  return { min: CALCULATOR.minHoursPerDay, max: Math.max(CALCULATOR.minHoursPerDay, max) };
}

export function clamp(value: number, min: number, max: number): number {
  if (Number.isNaN(value)) return min;
  return Math.min(max, Math.max(min, value));
}

export function clampHoursPerDay(hours: number, tier?: Pick<Tier, 'daily_mining_limit_seconds'>): number {
  const { min, max } = hoursPerDayBounds(tier);
  return clamp(hours, min, max);
}

export function clampDaysHolding(days: number): number {
  return clamp(Math.floor(days), CALCULATOR.minDaysHolding, CALCULATOR.maxDaysHolding);
}

/** The price input is parsed as a number and falls back to 0 if invalid (never negative). */
export function parsePrice(input: string): number {
  const value = Number.parseFloat(input);
  return Number.isFinite(value) && value >= 0 ? value : 0;
}

// Token amounts: integers in base units wherever they are stored or summed.

/** Whole-token decimal (number or string such as "0.25") to base units, exactly. */
export function toBaseUnits(amount: number | string): bigint {
  const text = typeof amount === 'number' ? amount.toFixed(TOKEN_DECIMALS) : amount.trim();
  const match = /^(\d+)(?:\.(\d+))?$/.exec(text);
  if (!match) throw new RangeError(`Not a non-negative token amount: ${text}`);
  const fraction = (match[2] ?? '').padEnd(TOKEN_DECIMALS, '0');
  if (fraction.length > TOKEN_DECIMALS && /[1-9]/.test(fraction.slice(TOKEN_DECIMALS))) {
    throw new RangeError(`More than ${TOKEN_DECIMALS} decimals: ${text}`);
  }
  return BigInt(match[1]!) * BASE_UNITS_PER_TOKEN + BigInt(fraction.slice(0, TOKEN_DECIMALS));
}

/** Base units to a whole-token number for display (exact for amounts below 2^53 base units). */
export function fromBaseUnits(units: bigint): number {
  const whole = units / BASE_UNITS_PER_TOKEN;
  const fraction = units % BASE_UNITS_PER_TOKEN;
  return Number(whole) + Number(fraction) / Number(BASE_UNITS_PER_TOKEN);
}

/** Base units mined in `seconds` at `ratePerHourUnits` base units per hour (floored: never over-pays). */
export function accruedUnits(ratePerHourUnits: bigint, seconds: number): bigint {
  if (seconds <= 0) return 0n;
  const millis = BigInt(Math.floor(seconds * 1000));
  return (ratePerHourUnits * millis) / BigInt(SECONDS_PER_HOUR * 1000);
}
