import {
  BASE_UNITS_PER_TOKEN,
  RATE_DOUBLING_DAYS,
  SECONDS_PER_DAY,
  SECONDS_PER_HOUR,
  TOKEN_DECIMALS,
} from './constants.ts';
import type { Tier } from './schemas/tiers.ts';

type RateTier = Pick<Tier, 'hourly_base_rate' | 'hourly_max_rate'>;

/** Number of rate doublings after `days` whole days active: floor(days / 10). */
export function doublings(days: number): number {
  return Math.floor(Math.max(0, days) / RATE_DOUBLING_DAYS);
}

/** Hourly rate after `days` days holding the tier: base × 2^floor(days/10), capped at the max. */
export function rateAfterDays(tier: RateTier, days: number): number {
  return Math.min(tier.hourly_base_rate * 2 ** doublings(days), tier.hourly_max_rate);
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
