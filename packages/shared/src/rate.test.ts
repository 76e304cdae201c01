import { describe, expect, it } from 'vitest';
import { rateAt } from './rate.ts';

const DAY = 86_400_000;
// Tier 1: 0.25 STRM/h base, 2 STRM/h max (base units).
const tier1 = { hourlyBaseRateUnits: 250_000n, hourlyMaxRateUnits: 2_000_000n };
const activated = new Date('2026-03-01T12:00:00Z');
const at = (days: number) => new Date(activated.getTime() + days * DAY);

describe('the rate rule: min(base × 2^floor(days/10), max)', () => {
  it.each([
    [0, 250_000n, 10],
    [9, 250_000n, 10],
    [9.999, 250_000n, 10],
    [10, 500_000n, 20],
    [25, 1_000_000n, 30],
    [30, 2_000_000n, null],
    [120, 2_000_000n, null],
  ])('after %s days: %s base units per hour, next doubling at day %s', (days, rate, nextDay) => {
    const result = rateAt(tier1, activated, at(days));
    expect(result.rateUnitsPerHour).toBe(rate);
    expect(result.nextRateIncreaseAt).toEqual(nextDay === null ? null : at(nextDay));
  });

  it('never exceeds the max for a very old activation', () => {
    expect(rateAt(tier1, activated, at(100_000)).rateUnitsPerHour).toBe(2_000_000n);
  });

  it('reads a clock before the activation as day 0', () => {
    expect(rateAt(tier1, activated, at(-3)).rateUnitsPerHour).toBe(250_000n);
  });

  it('applies an engagement boost before the max cap', () => {
    expect(rateAt(tier1, activated, at(0), 100).rateUnitsPerHour).toBe(275_000n);
    expect(rateAt(tier1, activated, at(30), 100).rateUnitsPerHour).toBe(2_000_000n);
  });
});
