// YouTube's quota is the Cloud project's (docs/platforms-youtube-kick.md#youtube-live): two instances count
// into one total in Redis, so together they never ask Google for more than YOUTUBE_DAILY_QUOTA; without
// Redis each keeps to its share (YOUTUBE_INSTANCES). Counted by the fake's calls, not by time.
import { randomUUID } from 'node:crypto';
import { SERVER_MESSAGES } from '@strm/shared';
import { FakeYouTube } from '@strm/testing';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../src/logger.ts';
import { PlatformError } from '../src/platforms/fetch.ts';
import { YouTubePlatform } from '../src/platforms/youtube.ts';

const logger = createLogger('silent');
const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const REDIRECT = 'http://127.0.0.1:3000/callback';
const VERIFIER = 'v'.repeat(64);

describe('the YouTube quota shared by the instances', () => {
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
        dailyQuota: 6,
        walletDailyUnits: 100,
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
  afterAll(async () => {
    for (const y of made) y.stop();
    redis.disconnect();
    await fake.stop();
  });
  /** A verified streamer (its verification spends no unit of the instances under test), live. */
  async function live(handle: string) {
    const verifier = make({ dailyQuota: 1_000_000 });
    const channel = fake.addChannel(handle);
    const code = fake.oauth.issueCode(channel.id, { redirectUri: REDIRECT, verifier: VERIFIER });
    const named = await verifier.verify(code, VERIFIER);
    if (named.refreshToken) refreshTokens.set(handle, named.refreshToken);
    fake.setLive(handle, true, 3);
    return { wallet: handle, username: named.username, externalId: named.id };
  }
  const dataCalls = () => fake.calls('liveBroadcasts') + fake.calls('videos') + fake.calls('channels');

  it('two instances on one Redis spend one daily quota between them', async () => {
    const prefix = `strm:youtube-quota:test-${randomUUID()}:`;
    const a = make();
    const b = make();
    a.shareQuota(redis, prefix);
    b.shareQuota(redis, prefix);
    const [s1, s2, s3, s4] = [
      await live('shared1'),
      await live('shared2'),
      await live('shared3'),
      await live('shared4'),
    ];
    const before = dataCalls();
    expect(await a.liveStatus(s1)).toEqual({ live: true, viewers: 3 });
    expect(await b.liveStatus(s2)).toEqual({ live: true, viewers: 3 });
    expect(await a.liveStatus(s3)).toEqual({ live: true, viewers: 3 });
    // 6 units spent by the two together: the next call is not made, by either.
    const err = await b.liveStatus(s4).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PlatformError);
    expect((err as PlatformError).message).toBe(SERVER_MESSAGES.youtubeQuotaExhausted);
    expect(dataCalls() - before).toBe(6);
    expect(b.quotaExhausted).toBe(true);
  });

  it('without Redis, each instance keeps to its share (YOUTUBE_INSTANCES)', async () => {
    const alone = make({ instances: 3 });
    const s = await live('alone1');
    const t = await live('alone2');
    const before = dataCalls();
    expect(await alone.liveStatus(s)).toEqual({ live: true, viewers: 3 });
    const err = await alone.liveStatus(t).catch((e: unknown) => e);
    expect((err as PlatformError).message).toBe(SERVER_MESSAGES.youtubeQuotaExhausted);
    // A third of 6 units: one lookup (2 calls), no more.
    expect(dataCalls() - before).toBe(2);
  });
});
