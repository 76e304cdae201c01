import { SECONDS_PER_HOUR, type Tier } from '@strm/shared';

export const CALCULATOR = {
  defaultPriceUsd: 1,
  priceStep: 0.00000001,
  defaultHoursPerDay: 8,
  fallbackMaxHoursPerDay: 8,
  minHoursPerDay: 1,
  minDaysHolding: 0,
  maxDaysHolding: 120,
  defaultDaysHolding: 120,
} as const;

/** The calculator's hour bounds for a tier (max falls back to 8 when no tier is known). */
export function hoursPerDayBounds(tier?: Pick<Tier, 'daily_mining_limit_seconds'>): {
  min: number;
  max: number;
} {
  const max = tier ? tier.daily_mining_limit_seconds / SECONDS_PER_HOUR : CALCULATOR.fallbackMaxHoursPerDay;
  return { min: CALCULATOR.minHoursPerDay, max: Math.max(CALCULATOR.minHoursPerDay, max) };
}

function clamp(value: number, min: number, max: number): number {
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
