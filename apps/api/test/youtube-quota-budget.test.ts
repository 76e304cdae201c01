// YouTube's quota as a budget nobody can burn (docs/platforms-youtube-kick.md#youtube-live): one wallet's
// daily budget is one budget across the instances (Redis); a wallet asking its room state at the socket
// event limit for a simulated hour, through two instances, spends at most that budget while another streamer
// verifies and starts; a day spent is awaited until midnight Pacific, not retried every few minutes. Against
// the fake YouTube and a real Redis; time is the faked Date (each join-room 100 ms after the last).
import { randomUUID } from 'node:crypto';
import { FakeYouTube } from '@strm/testing';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createLogger } from '../src/logger.ts';
import { PlatformError } from '../src/platforms/fetch.ts';
import {
  nextPacificMidnight,
  YouTubePlatform,
  YouTubeQuotaExhausted,
  YouTubeWalletBudgetSpent,
} from '../src/platforms/youtube.ts';

const logger = createLogger('silent');
const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const REDIRECT = 'http://127.0.0.1:3000/callback';
const VERIFIER = 'v'.repeat(64);
/** WALLET_EVENTS_PER_SECOND's default: the most join-rooms one wallet gets through in a second. */
const WALLET_EVENTS_PER_SECOND = 10;

describe('the YouTube budget of a wallet, and the day', () => {
  const fake = new FakeYouTube();
  const refreshTokens = new Map<string, string>();
  const redis = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 1 });
  const made: YouTubePlatform[] = [];
  const make = (over: Partial<ConstructorParameters<typeof YouTubePlatform>[0]> = {}) => {
    const youtube = new YouTubePlatform(
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
        dailyQuota: 10_000,
        walletDailyUnits: 6,
        roomStateMaxAgeMs: 60_000,
        ...over,
      },
      logger,
      async (account) => refreshTokens.get(account.wallet) ?? null,
    );
    made.push(youtube);
    return youtube;
  };
  beforeAll(async () => {
    await Promise.all([fake.start(), redis.connect()]);
  });
  afterEach(() => {
    vi.useRealTimers();
    fake.resetQuota();
  });
  afterAll(async () => {
    for (const y of made) y.stop();
    redis.disconnect();
    await fake.stop();
  });
  async function verified(by: YouTubePlatform, handle: string) {
    const channel = fake.addChannel(handle);
    const code = fake.oauth.issueCode(channel.id, { redirectUri: REDIRECT, verifier: VERIFIER });
    const named = await by.verify(code, VERIFIER);
    if (named.refreshToken) refreshTokens.set(handle, named.refreshToken);
    return { wallet: handle, username: named.username, externalId: named.id };
  }
  const dataCalls = () => fake.calls('liveBroadcasts') + fake.calls('videos');
  const twoInstances = () => {
    const prefix = `strm:youtube-quota:test-${randomUUID()}:`;
    const a = make();
    const b = make();
    a.shareQuota(redis, prefix);
    b.shareQuota(redis, prefix);
    return [a, b] as const;
  };

  it("one wallet's budget is one across the instances: reaching both gets it no more lookups", async () => {
    const [a, b] = twoInstances();
    const wallet = await verified(make({ dailyQuota: 1_000_000 }), 'twofaced');
    const before = dataCalls();
    // 6 units: three lookups of 2 units (an offline channel: liveBroadcasts, then nothing more to ask).
    await a.liveStatus(wallet);
    await b.liveStatus(wallet);
    await a.liveStatus(wallet);
    await expect(b.liveStatus(wallet)).rejects.toBeInstanceOf(YouTubeWalletBudgetSpent);
    await expect(a.liveStatus(wallet)).rejects.toBeInstanceOf(YouTubeWalletBudgetSpent);
    expect(dataCalls() - before).toBeLessThanOrEqual(6);
  });

  it("the quota burner: join-room at the wallet's event limit for a simulated hour through two instances costs at most its budget; another streamer verifies and starts meanwhile", async () => {
    const [a, b] = twoInstances();
    const burner = await verified(make({ dailyQuota: 1_000_000 }), 'burner');
    const start = Date.now();
    vi.useFakeTimers({ toFake: ['Date'], now: start });
    const before = { calls: dataCalls(), units: fake.unitsUsed };
    const events = 3600 * WALLET_EVENTS_PER_SECOND;
    let answeredOffline = 0;
    for (let i = 0; i < events; i++) {
      vi.setSystemTime(start + (i * 1000) / WALLET_EVENTS_PER_SECOND);
      const status = await (i % 2 ? a : b).roomStatus(burner);
      if (!status.live) answeredOffline++;
      if (i === events / 2) {
        // Half an hour in: another streamer verifies on one instance and starts on the other.
        const other = await verified(a, 'bystander');
        fake.setLive('bystander', true, 4);
        expect(await b.liveStatus(other)).toEqual({ live: true, viewers: 4 });
      }
    }
    expect(answeredOffline).toBe(events);
    const burnerCalls = dataCalls() - before.calls - 2; // the bystander's start: liveBroadcasts + videos
    console.log(
      `quota burner: ${events} join-rooms in a simulated hour through two instances made ${burnerCalls} Data API calls (budget 6 units)`,
    );
    expect(burnerCalls).toBeLessThanOrEqual(6);
    expect(fake.unitsUsed - before.units).toBeLessThanOrEqual(6 + 3);
  });

  it('the next Pacific midnight is 08:00 UTC in winter and 07:00 UTC in summer', () => {
    expect(new Date(nextPacificMidnight(Date.parse('2026-12-08T07:30:00Z'))).toISOString()).toBe(
      '2026-12-08T08:00:00.000Z',
    );
    expect(new Date(nextPacificMidnight(Date.parse('2026-07-01T20:00:00Z'))).toISOString()).toBe(
      '2026-07-02T07:00:00.000Z',
    );
    // The night the clocks go back (2026-11-01): midnight is still 07:00 UTC, the next one 08:00 UTC.
    expect(new Date(nextPacificMidnight(Date.parse('2026-10-31T12:00:00Z'))).toISOString()).toBe(
      '2026-11-01T07:00:00.000Z',
    );
    expect(new Date(nextPacificMidnight(Date.parse('2026-11-01T12:00:00Z'))).toISOString()).toBe(
      '2026-11-02T08:00:00.000Z',
    );
  });

  it("Google's quotaExceeded is awaited until midnight Pacific: nothing is asked before, the first ask after succeeds", async () => {
    const youtube = make({ walletDailyUnits: 100 });
    const streamer = await verified(make({ dailyQuota: 1_000_000 }), 'nightowl');
    fake.setLive('nightowl', true, 2);
    // 23:30 in Los Angeles (PST).
    const at = Date.parse('2026-12-08T07:30:00Z');
    vi.useFakeTimers({ toFake: ['Date'], now: at });
    fake.exhaustQuota();
    await expect(youtube.liveStatus(streamer)).rejects.toBeInstanceOf(YouTubeQuotaExhausted);
    const asked = fake.requests.length;
    // 29 minutes on (past the old 15-minute retry): still not asked.
    vi.setSystemTime(at + 29 * 60_000);
    const err = await youtube.liveStatus(streamer).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PlatformError);
    expect(err).toBeInstanceOf(YouTubeQuotaExhausted);
    expect(fake.requests.length).toBe(asked);
    // Midnight Pacific: Google's quota is new, and so is the day here.
    fake.resetQuota();
    vi.setSystemTime(Date.parse('2026-12-08T08:00:01Z'));
    expect(youtube.quotaExhausted).toBe(false);
    expect(await youtube.liveStatus(streamer)).toEqual({ live: true, viewers: 2 });
  });
});
