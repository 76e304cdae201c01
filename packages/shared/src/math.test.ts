import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { accruedUnits, fromBaseUnits, nextRateIncreaseAt, rateAfterDays, toBaseUnits } from './math.ts';
import { DEFAULT_TIERS } from './tiers.ts';

const tier1 = DEFAULT_TIERS[0]!;
const tier9 = DEFAULT_TIERS[8]!;
const day = 86_400_000;

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
