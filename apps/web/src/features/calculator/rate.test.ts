import { DEFAULT_TIERS } from '@strm/shared';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { rateAfterDays } from './rate.ts';

const tier1 = DEFAULT_TIERS[0]!;
const tier9 = DEFAULT_TIERS[8]!;

describe('the calculator’s mining rate', () => {
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
});
