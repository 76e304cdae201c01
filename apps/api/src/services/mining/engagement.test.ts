import { describe, expect, it } from 'vitest';
import { ENGAGEMENT_OFF, engagementBoostPermille } from './engagement.ts';

describe('the engagement factor', () => {
  it('is off by default', () => {
    expect(engagementBoostPermille(ENGAGEMENT_OFF, 10_000)).toBe(0);
  });

  it('adds 1 % per step of viewers, bounded', () => {
    const options = { maxBoostPercent: 20, viewersPerPercent: 10 };
    expect(engagementBoostPermille(options, 0)).toBe(0);
    expect(engagementBoostPermille(options, 9)).toBe(0);
    expect(engagementBoostPermille(options, 125)).toBe(120);
    expect(engagementBoostPermille(options, 1_000_000)).toBe(200);
  });
});
