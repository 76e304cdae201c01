// The landing hero names the platforms this deployment serves (docs/product.md#landing-page).
import { PRODUCT } from '@strm/shared';
import { describe, expect, it } from 'vitest';
import { landingSubtitle } from './landing.tsx';

describe('landingSubtitle', () => {
  it('names TikTok and Twitch, then YouTube and Kick only where they are configured', () => {
    const line = (platforms: string) =>
      `Stake ${PRODUCT} to activate a mining tier, go live on ${platforms}, and collect your rewards.`;
    expect(landingSubtitle(undefined)).toBe(line('TikTok or Twitch'));
    expect(landingSubtitle({ youtube: false, kick: false })).toBe(line('TikTok or Twitch'));
    expect(landingSubtitle({ youtube: true, kick: false })).toBe(line('TikTok, Twitch or YouTube'));
    expect(landingSubtitle({ youtube: false, kick: true })).toBe(line('TikTok, Twitch or Kick'));
    expect(landingSubtitle({ youtube: true, kick: true })).toBe(line('TikTok, Twitch, YouTube or Kick'));
  });
});
