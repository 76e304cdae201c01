import { DEFAULT_TIERS } from '@strm/shared';
import { describe, expect, it } from 'vitest';
import { clampDaysHolding, clampHoursPerDay, parsePrice } from './inputs.ts';

const tier1 = DEFAULT_TIERS[0]!;

describe('calculator inputs', () => {
  it('clamps hours between 1 and the tier daily limit, 8 without a tier', () => {
    expect(clampHoursPerDay(0, tier1)).toBe(1);
    expect(clampHoursPerDay(12, tier1)).toBe(8);
    expect(clampHoursPerDay(12, { daily_mining_limit_seconds: 36_000 })).toBe(10);
    expect(clampHoursPerDay(20)).toBe(8);
    expect(clampHoursPerDay(Number.NaN)).toBe(1);
  });

  it('clamps holding days to 0-120', () => {
    expect([-5, 0, 60.7, 121].map(clampDaysHolding)).toEqual([0, 0, 60, 120]);
  });

  it('parses the price, falling back to 0', () => {
    expect(parsePrice('0.00000123')).toBe(0.00000123);
    expect(parsePrice('abc')).toBe(0);
    expect(parsePrice('-1')).toBe(0);
  });
});
