// Ending a session needs evidence (docs/platforms.md#live-detection): two offline reads in a row, or the
// platform's own word (YouTube's actualEndTime, a verified webhook); a channel missing from a batch answer is
// unknown and ends only by the fail-closed rule; Kick is asked in batches small enough to answer right.
// Each against a fake in the documented failure mode, driven by its answers (no clocks).
import { FakeKick, FakeTwitch, FakeYouTube } from '@strm/testing';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createLogger } from '../src/logger.ts';
import type { LiveStatus } from '../src/platforms/adapter.ts';
import { KICK_CHANNELS_PAGE, KickPlatform } from '../src/platforms/kick.ts';
import { TwitchPlatform } from '../src/platforms/twitch.ts';
import { YouTubePlatform } from '../src/platforms/youtube.ts';
import { kickOnFake } from './support/kick.ts';

const logger = createLogger('silent');
const REDIRECT = 'http://127.0.0.1:3000/callback';
const VERIFIER = 'v'.repeat(64);

describe('Kick: ending needs evidence', () => {
  const fake = new FakeKick();
  let kick: KickPlatform;
  beforeAll(async () => {
    await fake.start();
    kick = new KickPlatform(kickOnFake(fake, { maxFailedPolls: 3, webhooks: false }), logger);
  });
  afterAll(async () => {
    kick.stop();
    await fake.stop();
  });
  const account = (slug: string) => ({
    wallet: slug,
    username: slug,
    externalId: String(fake.addUser(slug).id),
  });

  it('one offline read does not end a live session; the second in a row does, and a live read between resets it', async () => {
    fake.setLive('twiceoff', true, 5);
    const changes: LiveStatus[] = [];
    const unwatch = kick.watch(account('twiceoff'), (s) => changes.push(s));
    fake.setLive('twiceoff', false);
    await kick.pollNow();
    expect(changes).toEqual([]);
    fake.setLive('twiceoff', true, 5);
    await kick.pollNow();
    fake.setLive('twiceoff', false);
    await kick.pollNow();
    expect(changes).toEqual([]);
    await kick.pollNow();
    expect(changes).toEqual([{ live: false, viewers: 0 }]);
    unwatch();
  });

  it('a channel missing from the batch answer is unknown: it ends only after PLATFORM_MAX_FAILED_POLLS such answers, unconfirmed', async () => {
    fake.setLive('vanishing', true, 9);
    fake.setLive('staying', true, 4);
    const changes: Array<[string, LiveStatus]> = [];
    const unwatch = ['vanishing', 'staying'].map((slug) =>
      kick.watch(account(slug), (s) => changes.push([slug, s])),
    );
    fake.misbehave = { missing: new Set(['vanishing']) };
    try {
      await kick.pollNow();
      await kick.pollNow();
      expect(changes).toEqual([]);
      await kick.pollNow();
      expect(changes).toEqual([['vanishing', { live: false, viewers: 0, unconfirmed: true }]]);
    } finally {
      fake.misbehave = {};
      for (const u of unwatch) u();
    }
  });

  it('429 with and without Retry-After and a burst of 5xx are unknown reads: nothing ends before PLATFORM_MAX_FAILED_POLLS of them in a row', async () => {
    fake.setLive('throttled', true, 6);
    const changes: LiveStatus[] = [];
    const unwatch = kick.watch(account('throttled'), (s) => changes.push(s));
    fake.fail('/public/v1/channels', { status: 429, headers: { 'Retry-After': '30' } });
    await kick.pollNow();
    fake.fail('/public/v1/channels', { status: 429 });
    await kick.pollNow();
    await kick.pollNow();
    expect(changes).toEqual([]);
    fake.fail('/public/v1/channels', { status: 503, times: 3 });
    await kick.pollNow();
    await kick.pollNow();
    expect(changes).toEqual([]);
    await kick.pollNow();
    expect(changes).toEqual([{ live: false, viewers: 0, unconfirmed: true }]);
    unwatch();
  });

  it("50 live streamers with Kick's wrong is_live in batches over 25: asked 25 at a time, no session ends", async () => {
    const slugs = Array.from({ length: 50 }, (_, i) => `batchlive${i}`);
    for (const s of slugs) fake.setLive(s, true, 10);
    const accounts = slugs.map(account);
    fake.misbehave = { wrongIsLiveAbove: 25 };
    try {
      // The fake reproduces the fault: asked for all 50 at once, it reads half of them offline.
      const token = (await (
        await fetch(`${fake.url}/oauth/token`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({
            grant_type: 'client_credentials',
            client_id: fake.clientId,
            client_secret: fake.clientSecret,
          }).toString(),
        })
      ).json()) as { access_token: string };
      const all = new URL(`${fake.url}/public/v1/channels`);
      for (const a of accounts) all.searchParams.append('broadcaster_user_id', a.externalId);
      const answer = (await (
        await fetch(all, { headers: { Authorization: `Bearer ${token.access_token}` } })
      ).json()) as { data: Array<{ stream: { is_live: boolean } }> };
      expect(answer.data.filter((c) => c.stream.is_live)).toHaveLength(25);

      const changes: LiveStatus[] = [];
      const unwatch = accounts.map((a) => kick.watch(a, (s) => changes.push(s)));
      const wrongBefore = fake.wrongReads;
      const batchesBefore = fake.channelBatches.length;
      for (let i = 0; i < 4; i++) await kick.pollNow();
      expect(changes).toEqual([]);
      expect(fake.wrongReads).toBe(wrongBefore);
      const batches = fake.channelBatches.slice(batchesBefore);
      expect(batches).toEqual(Array(8).fill(KICK_CHANNELS_PAGE));
      for (const u of unwatch) u();
    } finally {
      fake.misbehave = {};
    }
  });
});

describe('Twitch: one offline read is not the end', () => {
  const fake = new FakeTwitch();
  let twitch: TwitchPlatform;
  beforeAll(async () => {
    await fake.start();
    twitch = new TwitchPlatform(
      {
        clientId: fake.clientId,
        clientSecret: fake.clientSecret,
        authBaseUrl: fake.url,
        apiBaseUrl: fake.url,
        redirectUri: REDIRECT,
        pollIntervalMs: 60_000,
        httpTimeoutMs: 2000,
      },
      logger,
    );
  });
  afterAll(async () => {
    twitch.stop();
    await fake.stop();
  });

  it('a stream read offline once and live again is not ended; two offline reads in a row end it', async () => {
    fake.setLive('flicker', true, 3);
    const changes: LiveStatus[] = [];
    const unwatch = twitch.watch({ wallet: 'w', username: 'flicker', externalId: null }, (s) =>
      changes.push(s),
    );
    fake.setLive('flicker', false);
    await twitch.pollNow();
    fake.setLive('flicker', true, 3);
    await twitch.pollNow();
    expect(changes).toEqual([]);
    fake.setLive('flicker', false);
    await twitch.pollNow();
    await twitch.pollNow();
    expect(changes).toEqual([{ live: false, viewers: 0 }]);
    unwatch();
  });
});

describe("YouTube: actualEndTime is the platform's word", () => {
  const fake = new FakeYouTube();
  const refreshTokens = new Map<string, string>();
  let youtube: YouTubePlatform;
  beforeAll(async () => {
    await fake.start();
    youtube = new YouTubePlatform(
      {
        clientId: fake.clientId,
        clientSecret: fake.clientSecret,
        apiKey: fake.apiKey,
        authBaseUrl: fake.url,
        tokenUrl: `${fake.url}/token`,
        apiBaseUrl: fake.url,
        redirectUri: REDIRECT,
        pollIntervalMs: 60_000,
        httpTimeoutMs: 2000,
        dailyQuota: 100_000_000,
      },
      logger,
      async (account) => refreshTokens.get(account.wallet) ?? null,
    );
  });
  afterAll(async () => {
    youtube.stop();
    await fake.stop();
  });

  async function verified(handle: string) {
    const channel = fake.addChannel(handle);
    const code = fake.oauth.issueCode(channel.id, { redirectUri: REDIRECT, verifier: VERIFIER });
    const named = await youtube.verify(code, VERIFIER);
    if (named.refreshToken) refreshTokens.set(handle, named.refreshToken);
    return { wallet: handle, username: named.username, externalId: named.id };
  }

  it('a broadcast with actualEndTime ends the session at the first read', async () => {
    const account = await verified('endtuber');
    fake.setLive('endtuber', true, 7);
    expect(await youtube.liveStatus(account)).toEqual({ live: true, viewers: 7 });
    const changes: LiveStatus[] = [];
    const unwatch = youtube.watch(account, (s) => changes.push(s));
    fake.setLive('endtuber', false);
    await youtube.pollNow();
    expect(changes).toEqual([{ live: false, viewers: 0 }]);
    unwatch();
  });

  it('hidden concurrentViewers: live with its viewers unknown, not 0', async () => {
    const account = await verified('hiddentuber');
    fake.setLive('hiddentuber', true, 30);
    fake.misbehave = { hideViewers: new Set(['hiddentuber']) };
    try {
      expect(await youtube.liveStatus(account)).toEqual({ live: true, viewers: 0, viewersUnknown: true });
    } finally {
      fake.misbehave = {};
    }
  });

  it('liveBroadcasts lagging a resumed session (not listed at the first ask) does not end it', async () => {
    const account = await verified('lagtuber');
    fake.setLive('lagtuber', true, 4);
    // A new adapter, as after a restart: the broadcast is looked up again, and YouTube's list lags.
    const resumed = new YouTubePlatform(
      {
        clientId: fake.clientId,
        clientSecret: fake.clientSecret,
        apiKey: fake.apiKey,
        authBaseUrl: fake.url,
        tokenUrl: `${fake.url}/token`,
        apiBaseUrl: fake.url,
        redirectUri: REDIRECT,
        pollIntervalMs: 60_000,
        httpTimeoutMs: 2000,
        dailyQuota: 100_000_000,
      },
      logger,
      async (a) => refreshTokens.get(a.wallet) ?? null,
    );
    fake.misbehave = { lagBroadcasts: 1 };
    const changes: LiveStatus[] = [];
    try {
      const unwatch = resumed.watch(account, (s) => changes.push(s));
      const asked = fake.calls('liveBroadcasts');
      await resumed.pollNow();
      expect(fake.calls('liveBroadcasts')).toBe(asked + 1);
      // The next round, by the adapter's clock (polls are paced to the quota).
      vi.useFakeTimers({ toFake: ['Date'] });
      vi.setSystemTime(Date.now() + 60_000);
      await resumed.pollNow();
      expect(fake.calls('liveBroadcasts')).toBe(asked + 2);
      expect(changes).toEqual([]);
      unwatch();
    } finally {
      vi.useRealTimers();
      fake.misbehave = {};
      resumed.stop();
    }
  });
});
