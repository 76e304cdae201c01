import { describe, expect, it } from 'vitest';
import { formatDuration, formatNumber, formatPrice } from './format.ts';

describe('formatting', () => {
  it('numbers: en-US with up to 6 fraction digits', () => {
    expect(formatNumber(1234567.1234567)).toBe('1,234,567.123457');
    expect(formatNumber(1000)).toBe('1,000');
  });

  it('prices: USD, with 8 decimals under one cent', () => {
    expect(formatPrice(1.5)).toBe('$1.50');
    expect(formatPrice(0.00123456)).toBe('$0.00123456');
    expect(formatPrice(0)).toBe('$0.00');
  });

  it("durations as 'Nh Nm Ns'", () => {
    expect(formatDuration(3725)).toBe('1h 2m 5s');
    expect(formatDuration(0)).toBe('0h 0m 0s');
    expect(formatDuration(28_800)).toBe('8h 0m 0s');
  });
});
