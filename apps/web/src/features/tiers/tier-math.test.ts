import { DEFAULT_TIERS } from '@strm/shared';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { calculatorEarnings, dashboardEarnings } from './tier-math.ts';

const tier9 = DEFAULT_TIERS[8]!;

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
