import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { accruedUnits, fromBaseUnits, toBaseUnits } from './math.ts';

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
