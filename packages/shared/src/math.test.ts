import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  accruedUnits,
  calculatorEarnings,
  clampDaysHolding,
  clampHoursPerDay,
  dashboardEarnings,
  fromBaseUnits,
  holderTier,
  nextRate,
  nextRateIncreaseAt,
  parsePrice,
  rateAfterDays,
  toBaseUnits,
} from './math.ts';
import { DEFAULT_TIERS } from './tiers.ts';

const tier1 = DEFAULT_TIERS[0]!;
const tier9 = DEFAULT_TIERS[8]!;
const day = 86_400_000;

describe('holder tier', () => {
  it('is starter below 500000, pro from 500000, elite from 1000000', () => {
    expect(holderTier(0)).toBe('starter');
    expect(holderTier(499_999.999999)).toBe('starter');
    expect(holderTier(500_000)).toBe('pro');
    expect(holderTier(999_999)).toBe('pro');
    expect(holderTier(1_000_000)).toBe('elite');
  });
});

describe('mining rate', () => {
  it('doubles every 10 whole days and stops at the max', () => {
    expect([0, 9, 10, 19, 20, 30, 40, 500].map((d) => rateAfterDays(tier1, d))).toEqual([
      0.25, 0.25, 0.5, 0.5, 1, 2, 2, 2,
    ]);
    expect(rateAfterDays(tier9, 29)).toBe(32);
    expect(rateAfterDays(tier9, 30)).toBe(64);
  });

  it('never falls, never passes the max, never goes below the base (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 5000 }), fc.integer({ min: 0, max: 8 }), (d, i) => {
        const tier = DEFAULT_TIERS[i]!;
        const rate = rateAfterDays(tier, d);
        expect(rate).toBeGreaterThanOrEqual(tier.hourly_base_rate);
        expect(rate).toBeLessThanOrEqual(tier.hourly_max_rate);
        expect(rateAfterDays(tier, d + 1)).toBeGreaterThanOrEqual(rate);
        expect(rate).toBe(Math.min(tier.hourly_base_rate * 2 ** Math.floor(d / 10), tier.hourly_max_rate));
      }),
    );
  });

  it('next rate is double the current, capped', () => {
    expect(nextRate(8, 64)).toBe(16);
    expect(nextRate(40, 64)).toBe(64);
  });

  it('next increase falls on the next 10-day boundary, none once at the max', () => {
    const activated = new Date('2026-01-01T12:00:00Z');
    expect(nextRateIncreaseAt(tier1, activated, new Date(activated.getTime() + 3 * day))?.toISOString()).toBe(
      '2026-01-11T12:00:00.000Z',
    );
    expect(
      nextRateIncreaseAt(tier1, activated, new Date(activated.getTime() + 10 * day))?.toISOString(),
    ).toBe('2026-01-21T12:00:00.000Z');
    expect(nextRateIncreaseAt(tier1, activated, new Date(activated.getTime() + 30 * day))).toBeNull();
  });
});

describe('earnings', () => {
  it('calculator: daily = hours × rate, monthly = 30 × daily', () => {
    expect(calculatorEarnings(8, 2)).toEqual({ daily: 16, monthly: 480 });
  });

  it('dashboard: uses the tier daily limit in hours', () => {
    expect(dashboardEarnings(tier9, 64)).toEqual({ daily: 512, monthly: 15_360 });
  });

  it('monthly is always 30 days of daily (property)', () => {
    fc.assert(
      fc.property(
        fc.double({ min: 0, max: 24, noNaN: true }),
        fc.double({ min: 0, max: 64, noNaN: true }),
        (h, r) => {
          const { daily, monthly } = calculatorEarnings(h, r);
          expect(monthly).toBeCloseTo(30 * daily, 6);
        },
      ),
    );
  });
});

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

describe('base units', () => {
  it('converts exactly with 6 decimals', () => {
    expect(toBaseUnits('0.25')).toBe(250_000n);
    expect(toBaseUnits(1_000_000)).toBe(1_000_000_000_000n);
    expect(toBaseUnits('1.0000000')).toBe(1_000_000n);
    expect(fromBaseUnits(1_234_567n)).toBe(1.234567);
    expect(() => toBaseUnits('-1')).toThrow(RangeError);
    expect(() => toBaseUnits('1.0000005')).toThrow(RangeError);
  });

  it('round-trips any amount (property)', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 2n ** 52n }), (units) => {
        expect(toBaseUnits(fromBaseUnits(units).toFixed(6))).toBe(units);
      }),
    );
  });

  it('accrues by elapsed time, floored, additive over splits (property)', () => {
    expect(accruedUnits(2_000_000n, 3600)).toBe(2_000_000n);
    expect(accruedUnits(250_000n, 1)).toBe(69n);
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 64_000_000n }), fc.nat(28_800), fc.nat(28_800), (rate, a, b) => {
        const whole = accruedUnits(rate, a + b);
        const parts = accruedUnits(rate, a) + accruedUnits(rate, b);
        expect(parts).toBeLessThanOrEqual(whole);
        expect(whole - parts).toBeLessThanOrEqual(1n);
      }),
    );
  });
});
