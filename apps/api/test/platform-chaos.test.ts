// Chaos runs, one per platform (docs/platforms.md#chaos-runs): each fake in its worst documented modes for 10
// minutes of simulated time with 50 live streamers. No session ends while its stream is live; every session
// whose stream really ends ends within PLATFORM_MAX_FAILED_POLLS polls of the end (two when the reads are
// clean); no duplicate subscription is left at Kick's fake; YouTube's quota spent per 1,000 live streamers per
// day is printed. Faults last fewer rounds in a row than PLATFORM_MAX_FAILED_POLLS: a stream nobody can read
// that long ends by the fail-closed rule, as documented (YouTube's run shows it at the end, quota gone).
import { createServer, type Server } from 'node:http';
import { FakeKick, FakeTikTok, FakeTwitch, FakeYouTube } from '@strm/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../src/logger.ts';
import { KICK_CHANNELS_PAGE, KickPlatform } from '../src/platforms/kick.ts';
import { TikTokPlatform } from '../src/platforms/tiktok.ts';
import { TwitchPlatform } from '../src/platforms/twitch.ts';
import { YouTubePlatform } from '../src/platforms/youtube.ts';
import { waitFor } from './support/engine-harness.ts';
import { CHAOS_SIMULATED_MS, CHAOS_STREAMERS, type ChaosResult, judge, runChaos } from './support/chaos.ts';
import { kickOnFake } from './support/kick.ts';

const logger = createLogger('silent');
const REDIRECT = 'http://127.0.0.1:3000/callback';
const VERIFIER = 'v'.repeat(64);
const MAX_FAILED_POLLS = 3;
const DAY_MS = 86_400_000;
const names = (prefix: string) => Array.from({ length: CHAOS_STREAMERS }, (_, i) => `${prefix}${i}`);
/** Picks about `share` of the items. */
const some = <T>(items: T[], share: number, random: () => number) => items.filter(() => random() < share);

function expectAcceptance(name: string, result: ChaosResult) {
  const verdict = judge(result);
  expect(result.faults.length, 'faults injected').toBeGreaterThan(result.rounds / 3);
  expect(verdict.endedWhileLive, 'sessions ended while their stream was live').toBe(0);
  expect(verdict.ended).toBe(CHAOS_STREAMERS * (2 / 5));
  expect(verdict.worstPollsToEnd).not.toBeNull();
  expect(verdict.worstPollsToEnd!).toBeLessThanOrEqual(MAX_FAILED_POLLS);
  console.log(
    `${name} chaos: ${result.faults.length} faulty polls of ${result.rounds} (${[...new Set(result.faults.map((f) => f.split(': ')[1]))].join(', ')}); ` +
      `${verdict.ended} streams ended, each session within ${verdict.worstPollsToEnd} polls; none ended while live`,
  );
  return verdict;
}

describe('Kick chaos: wrong is_live above 25, missing channels, 429 with and without Retry-After, 5xx, per-event errors, duplicates, auto-unsubscribe', () => {
  const fake = new FakeKick();
  let kick: KickPlatform;
  beforeAll(async () => {
    await fake.start();
    kick = new KickPlatform(
      kickOnFake(fake, { pollIntervalMs: 30_000, maxFailedPolls: MAX_FAILED_POLLS }),
      logger,
    );
  });
  afterAll(async () => {
    kick.stop();
    await fake.stop();
  });

  it('50 live streamers for 10 simulated minutes: no live session ends, ended ones end within the bound, one subscription each', async () => {
    const slugs = names('kickchaos');
    const accounts = slugs.map((slug) => {
      fake.setLive(slug, true, 12);
      return { wallet: slug, username: slug, externalId: String(fake.addUser(slug).id) };
    });
    const id = (i: number) => Number(accounts[i]!.externalId);
    // Duplicates already at Kick for the first five; Kick's per-event error for every start.
    for (let i = 0; i < 5; i++)
      for (let d = 0; d < 3; d++)
        fake.subscriptions.push({
          id: `dup-${i}-${d}`,
          broadcasterId: id(i),
          event: 'livestream.status.updated',
        });
    fake.misbehave = { wrongIsLiveAbove: 25, subscriptionError: 'Subscription limit reached' };
    const wrongBefore = fake.wrongReads;
    const batchesBefore = fake.channelBatches.length;
    const result = await runChaos({
      adapter: kick,
      fake,
      accounts,
      pollIntervalMs: 30_000,
      maxFaultyInARow: MAX_FAILED_POLLS - 1,
      endStream: (i) => fake.setLive(slugs[i]!, false),
      async started() {
        await kick.subscriptionsSettled();
        fake.misbehave = { wrongIsLiveAbove: 25 };
      },
      fault(_round, random) {
        const kinds = ['missing', '429 Retry-After', '429', '5xx', 'auto-unsubscribe', 'duplicates'];
        const kind = kinds[Math.floor(random() * kinds.length)]!;
        const pages = Math.ceil(CHAOS_STREAMERS / KICK_CHANNELS_PAGE);
        if (kind === 'missing') fake.misbehave.missing = new Set(some(slugs, 0.3, random));
        if (kind === '429 Retry-After')
          fake.fail('/public/v1/channels', { status: 429, headers: { 'Retry-After': '30' }, times: pages });
        if (kind === '429') fake.fail('/public/v1/channels', { status: 429, times: pages });
        if (kind === '5xx') fake.fail('/public/v1/channels', { status: 503, times: pages });
        if (kind === 'auto-unsubscribe')
          for (const s of some(slugs, 0.2, random)) fake.dropSubscriptions(fake.addUser(s).id);
        if (kind === 'duplicates') {
          for (const s of some(slugs, 0.1, random))
            fake.subscriptions.push({
              id: `late-dup-${s}-${random()}`,
              broadcasterId: fake.addUser(s).id,
              event: 'livestream.status.updated',
            });
        }
        return kind;
      },
      calm() {
        fake.misbehave = { wrongIsLiveAbove: 25 };
      },
      afterRound: () => kick.subscriptionsSettled(),
    });
    expectAcceptance('Kick', result);
    expect(fake.wrongReads - wrongBefore, 'channels read with a wrong is_live').toBe(0);
    expect(Math.max(...fake.channelBatches.slice(batchesBefore))).toBeLessThanOrEqual(KICK_CHANNELS_PAGE);

    // The next periodic check (every 10 polls) finds Kick's list as the sessions need it: one subscription
    // for each live session, none for an ended one, no duplicate.
    const live = accounts.filter((_, i) => result.reportedAt[i] === null);
    await kick.checkSubscriptions(live);
    await kick.subscriptionsSettled();
    const perBroadcaster = new Map<number, number>();
    for (const s of fake.subscriptions)
      perBroadcaster.set(s.broadcasterId, (perBroadcaster.get(s.broadcasterId) ?? 0) + 1);
    accounts.forEach((a, i) => {
      expect(perBroadcaster.get(id(i)) ?? 0, a.username).toBe(result.reportedAt[i] === null ? 1 : 0);
    });
    expect(fake.subscriptions).toHaveLength(live.length);
    for (const u of result.unwatch) u();
    await kick.subscriptionsSettled();
  });
});

describe('Twitch chaos: EventSub revocations, 429 (Ratelimit-Reset), 5xx bursts, app tokens revoked', () => {
  const fake = new FakeTwitch();
  const SECRET = 'chaos-eventsub-secret-0123456789';
  let twitch: TwitchPlatform;
  let callbacks: Server;
  beforeAll(async () => {
    await fake.start();
    // Twitch's EventSub messages reach the adapter as the route hands them over (challenge, notifications).
    callbacks = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        twitch.handleEventSub(req.headers, Buffer.concat(chunks)).then(
          (answer) => res.writeHead(answer.status, { 'Content-Type': 'text/plain' }).end(answer.text ?? ''),
          () => res.writeHead(500).end(),
        );
      });
    });
    await new Promise<void>((resolve) => callbacks.listen(0, '127.0.0.1', resolve));
    const port = (callbacks.address() as { port: number }).port;
    twitch = new TwitchPlatform(
      {
        clientId: fake.clientId,
        clientSecret: fake.clientSecret,
        authBaseUrl: fake.url,
        apiBaseUrl: fake.url,
        redirectUri: REDIRECT,
        pollIntervalMs: 30_000,
        httpTimeoutMs: 2000,
        maxFailedPolls: MAX_FAILED_POLLS,
        eventSub: { callbackUrl: `http://127.0.0.1:${port}/api/v1/twitch/eventsub`, secret: SECRET },
      },
      logger,
    );
  });
  afterAll(async () => {
    twitch.stop();
    await new Promise((resolve) => callbacks.close(resolve));
    await fake.stop();
  });

  it('50 live streamers for 10 simulated minutes: no live session ends, ended ones end within the bound, one subscription each', async () => {
    const logins = names('twitchchaos');
    const accounts = logins.map((login) => {
      fake.setLive(login, true, 20);
      return { wallet: login, username: login, externalId: fake.addUser(login).id };
    });
    const enabled = (login: string) =>
      fake.subscriptions.filter(
        (s) =>
          s.broadcasterId === fake.addUser(login).id && s.type === 'stream.offline' && s.status === 'enabled',
      ).length;
    const result = await runChaos({
      adapter: twitch,
      fake,
      accounts,
      pollIntervalMs: 30_000,
      maxFaultyInARow: MAX_FAILED_POLLS - 1,
      endStream: (i) => fake.setLive(logins[i]!, false),
      started: () => waitFor(() => logins.every((l) => enabled(l) === 1), 10_000).then(() => {}),
      async fault(_round, random) {
        const kinds = ['revocation', '429', '5xx', 'app token revoked'];
        const kind = kinds[Math.floor(random() * kinds.length)]!;
        const reset = String(Math.floor(Date.now() / 1000) + 20);
        if (kind === 'revocation') {
          for (const login of some(logins, 0.1, random)) await fake.revokeSubscriptions(login);
        }
        if (kind === '429')
          fake.fail('/helix/streams', { status: 429, headers: { 'Ratelimit-Reset': reset } });
        if (kind === '5xx') fake.fail('/helix/streams', { status: 502 });
        if (kind === 'app token revoked') fake.revokeAppTokens();
        return kind;
      },
      calm() {},
    });
    expectAcceptance('Twitch', result);
    // A subscription revoked for failed deliveries is made again while its session runs: one each.
    const live = logins.filter((_, i) => result.reportedAt[i] === null);
    await waitFor(() => live.every((l) => enabled(l) === 1), 10_000);
    for (const login of logins) expect(enabled(login), login).toBeLessThanOrEqual(1);
    for (const u of result.unwatch) u();
  });
});

describe('TikTok chaos: the anti-bot page, rooms answered empty, 429, 5xx bursts', () => {
  const fake = new FakeTikTok();
  let tiktok: TikTokPlatform;
  beforeAll(async () => {
    await fake.start();
    tiktok = new TikTokPlatform(
      {
        webBaseUrl: fake.url,
        openApiBaseUrl: fake.url,
        httpTimeoutMs: 2000,
        clientKey: undefined,
        clientSecret: undefined,
        redirectUri: REDIRECT,
        pollIntervalMs: 30_000,
        maxFailedPolls: MAX_FAILED_POLLS,
      },
      logger,
    );
  });
  afterAll(async () => {
    tiktok.stop();
    await fake.stop();
  });

  it('50 live streamers for 10 simulated minutes: no live session ends, ended ones end within the bound', async () => {
    const handles = names('tiktokchaos');
    const accounts = handles.map((handle) => {
      fake.setLive(handle, true, 40);
      return { wallet: handle, username: handle, externalId: fake.addUser(handle).id };
    });
    const result = await runChaos({
      adapter: tiktok,
      fake,
      accounts,
      pollIntervalMs: 30_000,
      maxFaultyInARow: MAX_FAILED_POLLS - 1,
      endStream: (i) => fake.setLive(handles[i]!, false),
      fault(_round, random) {
        const kinds = ['anti-bot page', 'empty room', '429', '5xx'];
        const kind = kinds[Math.floor(random() * kinds.length)]!;
        if (kind === 'anti-bot page') fake.misbehave = { challenge: new Set(some(handles, 0.4, random)) };
        if (kind === 'empty room') fake.misbehave = { emptyRoom: new Set(some(handles, 0.3, random)) };
        if (kind === '429') fake.fail('/api-live/user/room/', { status: 429, times: CHAOS_STREAMERS });
        if (kind === '5xx') fake.fail('/api-live/user/room/', { status: 503, times: CHAOS_STREAMERS });
        return kind;
      },
      calm() {
        fake.misbehave = {};
      },
    });
    expectAcceptance('TikTok', result);
    for (const u of result.unwatch) u();
  });
});

describe('YouTube chaos: lagging liveBroadcasts, hidden viewers, invalid_grant, 5xx bursts, then quotaExceeded', () => {
  const fake = new FakeYouTube();
  const refreshTokens = new Map<string, string>();
  const made: YouTubePlatform[] = [];
  const make = (dailyQuota: number) => {
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
        maxFailedPolls: MAX_FAILED_POLLS,
        dailyQuota,
      },
      logger,
      async (account) => refreshTokens.get(account.wallet) ?? null,
    );
    made.push(youtube);
    return youtube;
  };
  beforeAll(() => fake.start());
  afterAll(async () => {
    for (const y of made) y.stop();
    await fake.stop();
  });

  it('50 live streamers for 10 simulated minutes on the default 10,000 units: no live session ends, ended ones end within the bound; quota gone, the rest end fail-closed', async () => {
    const verifier = make(1_000_000);
    const youtube = make(10_000);
    const handles = names('ytchaos');
    const channels = handles.map((h) => fake.addChannel(h));
    const accounts = [];
    for (const [i, handle] of handles.entries()) {
      const code = fake.oauth.issueCode(channels[i]!.id, { redirectUri: REDIRECT, verifier: VERIFIER });
      const named = await verifier.verify(code, VERIFIER);
      if (named.refreshToken) refreshTokens.set(handle, named.refreshToken);
      accounts.push({ wallet: handle, username: named.username, externalId: named.id });
    }
    // Streams that just started: liveBroadcasts lags them; a streamer retries the start until it is seen.
    fake.misbehave = { lagBroadcasts: 2, hideViewers: new Set(handles.slice(0, 10)) };
    for (const handle of handles) fake.setLive(handle, true, 25);
    for (const account of accounts) {
      let status = await youtube.liveStatus(account);
      for (let tries = 0; !status.live && tries < 3; tries++) status = await youtube.liveStatus(account);
      expect(status.live, account.wallet).toBe(true);
    }
    const unitsBefore = fake.unitsUsed;
    const result = await runChaos({
      adapter: youtube,
      fake,
      accounts,
      pollIntervalMs: 60_000,
      maxFaultyInARow: MAX_FAILED_POLLS - 1,
      endStream: (i) => fake.setLive(handles[i]!, false),
      fault(_round, random) {
        const kinds = ['5xx', 'invalid_grant'];
        const kind = kinds[Math.floor(random() * kinds.length)]!;
        if (kind === '5xx') fake.fail('/youtube/v3/videos', { status: 503 });
        if (kind === 'invalid_grant')
          for (const i of some([...channels.keys()], 0.1, random))
            fake.oauth.revokeRefreshTokens(channels[i]!.id);
        return kind;
      },
      calm() {},
      tail: { rounds: MAX_FAILED_POLLS + 1, begin: () => fake.exhaustQuota() },
    });
    expectAcceptance('YouTube', result);
    // Quota gone after the run: every session still live ends, unconfirmed, within the fail-closed bound.
    const tail = result.reports.filter((r) => r.round > result.rounds);
    const stillLive = result.endedAt.filter(
      (e, i) => e === null && (result.reportedAt[i] ?? Infinity) > result.rounds,
    );
    expect(tail.filter((r) => !r.status.live && r.status.unconfirmed)).toHaveLength(stillLive.length);
    expect(Math.max(...tail.map((r) => r.round - result.rounds))).toBeLessThanOrEqual(MAX_FAILED_POLLS + 1);

    // Units spent by the polling per live streamer, scaled to 1,000 streamers and a day.
    const watchedRounds = result.reportedAt.reduce<number>(
      (sum, r) => sum + Math.min(r ?? result.rounds, result.rounds),
      0,
    );
    const units = fake.unitsUsed - unitsBefore;
    const perThousandPerPoll = (units * 1000) / watchedRounds;
    const perThousandPerDay = Math.round((perThousandPerPoll * DAY_MS) / 60_000);
    // What the adapter does with that: polls spaced so a day of polling fits 80 % of the default 10,000 units.
    const pacedSeconds = Math.ceil((perThousandPerPoll * DAY_MS) / (10_000 * 0.8) / 1000);
    console.log(
      `YouTube chaos: ${units} units for ${watchedRounds} streamer-polls in ${CHAOS_SIMULATED_MS / 60_000} simulated minutes: ` +
        `${perThousandPerPoll.toFixed(1)} units a poll per 1,000 live streamers = ${perThousandPerDay} units per 1,000 live ` +
        `streamers per day at one poll a minute; on the default 10,000 units a day 1,000 live streamers are polled every ${pacedSeconds} s`,
    );
    expect(units).toBeGreaterThan(0);
  });
});
