import { describe, expect, it } from 'vitest';
import { holderTier } from './holder-tier.ts';

describe('holder tier', () => {
  it('is starter below 500000, pro from 500000, elite from 1000000', () => {
    expect(holderTier(0)).toBe('starter');
    expect(holderTier(499_999.999999)).toBe('starter');
    expect(holderTier(500_000)).toBe('pro');
    expect(holderTier(999_999)).toBe('pro');
    expect(holderTier(1_000_000)).toBe('elite');
  });
});
