// The YouTube and Kick adapters against the fake YouTube and the fake Kick: the code grant with
// PKCE, who the account is, live, offline and viewers, token refresh, YouTube's quota (counted, spaced,
// exhausted without ending anything) and Kick's webhooks (refused unless signed with Kick's key).
import { randomUUID } from 'node:crypto';
import { SERVER_MESSAGES } from '@strm/shared';
import { FakeKick, FakeYouTube } from '@strm/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../src/logger.ts';
import { createMetrics } from '../src/observability/metrics.ts';
import type { LiveStatus } from '../src/platforms/adapter.ts';
import { PlatformError } from '../src/platforms/fetch.ts';
import { KickPlatform } from '../src/platforms/kick.ts';
import { openToken, sealToken } from '../src/platforms/oauth-code-accounts.ts';
import { YouTubePlatform } from '../src/platforms/youtube.ts';
import { pkceChallenge } from '../src/platforms/oauth-state.ts';
import { kickOnFake } from './support/kick.ts';

const logger = createLogger('silent');
const REDIRECT = 'http://127.0.0.1:3000/callback';
const VERIFIER = 'v'.repeat(64);

async function failure(promise: Promise<unknown>): Promise<PlatformError> {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(PlatformError);
  return err as PlatformError;
}

describe('YouTube adapter', () => {
  const fake = new FakeYouTube();
  const refreshTokens = new Map<string, string>();
  const metrics = createMetrics();
  let youtube: YouTubePlatform;
  const make = (over: Partial<ConstructorParameters<typeof YouTubePlatform>[0]> = {}) =>
    new YouTubePlatform(
      {
        clientId: fake.clientId,
        clientSecret: fake.clientSecret,
        apiKey: fake.apiKey,
        authBaseUrl: fake.url,
        tokenUrl: `${fake.url}/token`,
        apiBaseUrl: fake.url,
        redirectUri: REDIRECT,
        pollIntervalMs: 60_000,
        httpTimeoutMs: 1000,
        dailyQuota: 100_000_000,
        ...over,
      },
      logger,
      async (account) => refreshTokens.get(account.wallet) ?? null,
    );
  /** A verified streamer: the code exchanged as /callback would, its refresh token kept. */
  async function verified(handle: string, wallet = handle) {
    const channel = fake.addChannel(handle);
    const code = fake.oauth.issueCode(channel.id, { redirectUri: REDIRECT, verifier: VERIFIER });
    const named = await youtube.verify(code, VERIFIER);
    if (named.refreshToken) refreshTokens.set(wallet, named.refreshToken);
    return { wallet, username: named.username, externalId: named.id };
  }
  beforeAll(async () => {
    await fake.start();
    youtube = make({ metrics });
  });
  afterAll(async () => {
    youtube.stop();
    await fake.stop();
  });

  it("builds Google's code-grant URL with PKCE S256, offline access and the readonly scope", () => {
    const url = new URL(youtube.authorizeUrl('youtube.state-1', pkceChallenge(VERIFIER)));
    expect(url.origin + url.pathname).toBe(`${fake.url}/o/oauth2/v2/auth`);
    expect(Object.fromEntries(url.searchParams)).toMatchObject({
      client_id: fake.clientId,
      redirect_uri: REDIRECT,
      response_type: 'code',
      scope: 'https://www.googleapis.com/auth/youtube.readonly',
      state: 'youtube.state-1',
      code_challenge: pkceChallenge(VERIFIER),
      code_challenge_method: 'S256',
      access_type: 'offline',
    });
  });

  it('the code with its verifier names the channel (handle, id) and brings a refresh token', async () => {
    const channel = fake.addChannel('@GoodTuber');
    const code = fake.oauth.issueCode(channel.id, { redirectUri: REDIRECT, verifier: VERIFIER });
    const named = await youtube.verify(code, VERIFIER);
    expect(named).toMatchObject({ id: channel.id, username: 'goodtuber' });
    expect(named.refreshToken).toEqual(expect.any(String));
    // Single use; and a wrong verifier is refused (PKCE).
    expect((await failure(youtube.verify(code, VERIFIER))).kind).toBe('unauthorized');
    const other = fake.oauth.issueCode(channel.id, { redirectUri: REDIRECT, verifier: VERIFIER });
    const refused = await failure(youtube.verify(other, 'w'.repeat(64)));
    expect([refused.kind, refused.message]).toEqual([
      'unauthorized',
      'YouTube did not accept this authorization. Please connect with YouTube again.',
    ]);
  });

  it('live with its viewers from videos.list; offline when the broadcast ends (actualEndTime)', async () => {
    const account = await verified('livetuber');
    expect(await youtube.liveStatus(account)).toEqual({ live: false, viewers: 0 });
    fake.setLive('livetuber', true, 321);
    expect(await youtube.liveStatus(account)).toEqual({ live: true, viewers: 321 });
    const changes: LiveStatus[] = [];
    const unwatch = youtube.watch(account, (s) => changes.push(s));
    const broadcastsBefore = fake.calls('liveBroadcasts');
    fake.setLive('livetuber', true, 400);
    await youtube.pollNow();
    expect(changes).toEqual([]);
    fake.setLive('livetuber', false);
    await new Promise((r) => setTimeout(r, 5));
    await youtube.pollNow();
    expect(changes).toEqual([{ live: false, viewers: 0 }]);
    // The broadcast was found once at the start; polls asked videos.list only.
    expect(fake.calls('liveBroadcasts')).toBe(broadcastsBefore);
    unwatch();
  });

  it('asks liveBroadcasts with broadcastStatus=active alone (the API takes exactly one filter)', async () => {
    const account = await verified('filtertuber');
    fake.setLive('filtertuber', true, 1);
    await youtube.liveStatus(account);
    const asked = fake.requests.filter((r) => r.url.pathname === '/youtube/v3/liveBroadcasts').at(-1)!;
    expect(asked.url.searchParams.get('broadcastStatus')).toBe('active');
    expect(asked.url.searchParams.has('mine')).toBe(false);
  });

  it('batches videos.list: 120 live streamers are polled with 3 calls', async () => {
    const accounts = [];
    for (let i = 0; i < 120; i++) {
      const a = await verified(`batch${i}`);
      fake.setLive(`batch${i}`, true, i);
      await youtube.liveStatus(a);
      accounts.push(a);
    }
    const unwatch = accounts.map((a) => youtube.watch(a, () => {}));
    const before = fake.calls('videos');
    await new Promise((r) => setTimeout(r, 5));
    await youtube.pollNow();
    expect(fake.calls('videos') - before).toBe(3);
    for (const u of unwatch) u();
    const text = await metrics.registry.getSingleMetricAsString('strm_youtube_quota_units_total');
    expect(text).toMatch(/method="videos.list"/);
    const estimate = await metrics.registry.getSingleMetricAsString(
      'strm_youtube_quota_units_per_1000_live_streamers_per_day',
    );
    // 3 units a poll for 120 streamers, a poll a minute (1,440 a day): 36,000 units per 1,000 streamers.
    expect(estimate).toMatch(/ 36000$/m);
  });

  it('spaces polls so a day of them fits the quota', async () => {
    const small = make({ dailyQuota: 1000 });
    const account = await verified('pacedtuber');
    fake.setLive('pacedtuber', true, 5);
    await small.liveStatus(account);
    small.watch(account, () => {});
    const before = fake.calls('videos');
    await small.pollNow();
    await small.pollNow();
    await small.pollNow();
    // 1 unit a poll within 80% of 1,000 a day: one poll every 108 s at most.
    expect(fake.calls('videos') - before).toBe(1);
    small.stop();
  });

  it('refreshes the access token with the refresh token when it expired; a revoked one asks to reconnect', async () => {
    const account = await verified('refreshtuber');
    fake.setLive('refreshtuber', true, 9);
    const fresh = make();
    expect(await fresh.liveStatus(account)).toEqual({ live: true, viewers: 9 });
    fake.oauth.expireAccessTokens();
    fake.setLive('refreshtuber', false);
    fake.setLive('refreshtuber', true, 10);
    expect(await fresh.liveStatus(account)).toEqual({ live: true, viewers: 10 });
    const grants = fake.requests.filter((r) => r.url.pathname === '/token').length;
    expect(grants).toBeGreaterThan(1);
    fake.oauth.revokeRefreshTokens(account.externalId);
    fake.oauth.expireAccessTokens();
    fake.setLive('refreshtuber', false);
    fake.setLive('refreshtuber', true, 11);
    const err = await failure(fresh.liveStatus(account));
    expect([err.kind, err.message]).toEqual([
      'unauthorized',
      'Your YouTube authorization has expired or was revoked. Please connect with YouTube again.',
    ]);
    fresh.stop();
  });

  it('quota exhausted: a clear refusal at start; watched streams read unknown and end by the fail-closed rule', async () => {
    const q = make({ metrics: createMetrics(), maxFailedPolls: 3 });
    const account = await verified('quotatuber');
    fake.setLive('quotatuber', true, 50);
    expect(await q.liveStatus(account)).toEqual({ live: true, viewers: 50 });
    const changes: LiveStatus[] = [];
    q.watch(account, (s) => changes.push(s));
    fake.exhaustQuota();
    for (let i = 0; i < 2; i++) {
      await new Promise((r) => setTimeout(r, 5));
      await q.pollNow();
    }
    // Before the bound, nothing ends; at it, the stream nobody can confirm ends (it may still be live).
    expect(changes).toEqual([]);
    await q.pollNow();
    expect(changes).toEqual([{ live: false, viewers: 0, unconfirmed: true }]);
    expect(q.quotaExhausted).toBe(true);
    const err = await failure(q.liveStatus(account));
    expect([err.kind, err.message]).toEqual(['rate-limited', SERVER_MESSAGES.youtubeQuotaExhausted]);
    fake.resetQuota();
    q.stop();
  });

  it('the quota burner: one wallet asking its room state over and over spends at most its own budget; another streamer still starts', async () => {
    const b = make({ walletDailyUnits: 10, roomStateMaxAgeMs: 0 });
    const burner = await verified('burnertuber');
    const other = await verified('patienttuber');
    fake.setLive('patienttuber', true, 8);
    const before = fake.calls('liveBroadcasts') + fake.calls('videos');
    for (let i = 0; i < 200; i++) expect(await b.roomStatus(burner)).toEqual({ live: false, viewers: 0 });
    expect(fake.calls('liveBroadcasts') + fake.calls('videos') - before).toBeLessThanOrEqual(10);
    // Its own start is refused with the reason; another wallet's is not.
    const err = await failure(b.liveStatus(burner));
    expect(err.message).toBe(SERVER_MESSAGES.youtubeWalletBudgetSpent);
    expect(await b.liveStatus(other)).toEqual({ live: true, viewers: 8 });
    // A watched (live) account's room state is the poller's: no call at all.
    b.watch(other, () => {});
    const watchedBefore = fake.calls('liveBroadcasts') + fake.calls('videos');
    for (let i = 0; i < 50; i++) expect(await b.roomStatus(other)).toEqual({ live: true, viewers: 8 });
    expect(fake.calls('liveBroadcasts') + fake.calls('videos')).toBe(watchedBefore);
    b.stop();
  });

  it('keeps refresh tokens sealed: another secret cannot open them', () => {
    const sealed = sealToken('1//refresh', 'secret-a');
    expect(sealed).not.toContain('refresh');
    expect(openToken(sealed, 'secret-a')).toBe('1//refresh');
    expect(openToken(sealed, 'secret-b')).toBeNull();
  });
});

describe('Kick adapter', () => {
  const fake = new FakeKick();
  let kick: KickPlatform;
  const make = (over: Partial<ConstructorParameters<typeof KickPlatform>[0]> = {}) =>
    new KickPlatform(
      {
        clientId: fake.clientId,
        clientSecret: fake.clientSecret,
        authBaseUrl: fake.url,
        apiBaseUrl: fake.url,
        redirectUri: REDIRECT,
        pollIntervalMs: 60_000,
        httpTimeoutMs: 1000,
        webhooks: true,
        ...over,
      },
      logger,
    );
  /** Posts what the fake delivers into the adapter, as the route would. */
  let received: Array<{ status: number }> = [];
  const server = {
    url: '',
    close: () => {},
  };
  beforeAll(async () => {
    await fake.start();
    kick = make();
    const { createServer } = await import('node:http');
    const http = createServer(async (req, res) => {
      const chunks: Buffer[] = [];
      for await (const c of req) chunks.push(c as Buffer);
      const answer = await kick.handleWebhook(req.headers, Buffer.concat(chunks));
      received.push(answer);
      res.writeHead(answer.status).end();
    });
    await new Promise<void>((r) => http.listen(0, '127.0.0.1', r));
    server.url = `http://127.0.0.1:${(http.address() as { port: number }).port}/kick/webhook`;
    server.close = () => http.close();
    fake.webhookUrl = server.url;
  });
  afterAll(async () => {
    kick.stop();
    server.close();
    await fake.stop();
  });

  async function verified(slug: string) {
    const user = fake.addUser(slug);
    const code = fake.oauth.issueCode(String(user.id), { redirectUri: REDIRECT, verifier: VERIFIER });
    const named = await kick.verify(code, VERIFIER);
    return { wallet: slug, username: named.username, externalId: named.id };
  }

  it("builds id.kick.com's URL with PKCE S256 and the user's two scopes (the app token subscribes)", () => {
    const url = new URL(kick.authorizeUrl('kick.s', pkceChallenge(VERIFIER)));
    expect(url.origin + url.pathname).toBe(`${fake.url}/oauth/authorize`);
    expect(Object.fromEntries(url.searchParams)).toMatchObject({
      response_type: 'code',
      client_id: fake.clientId,
      scope: 'user:read channel:read',
      code_challenge_method: 'S256',
      state: 'kick.s',
    });
  });

  it('the code names the user and the channel slug; a wrong verifier is refused', async () => {
    const user = fake.addUser('GoodKicker');
    const code = fake.oauth.issueCode(String(user.id), { redirectUri: REDIRECT, verifier: VERIFIER });
    expect(await kick.verify(code, VERIFIER)).toEqual({ id: String(user.id), username: 'goodkicker' });
    const bad = fake.oauth.issueCode(String(user.id), { redirectUri: REDIRECT, verifier: VERIFIER });
    expect((await failure(kick.verify(bad, 'x'.repeat(64)))).message).toBe(
      'Kick did not accept this authorization. Please connect with Kick again.',
    );
  });

  it('live with viewers, offline, by broadcaster id and by slug', async () => {
    const account = await verified('livekicker');
    expect(await kick.liveStatus(account)).toEqual({ live: false, viewers: 0 });
    fake.setLive('livekicker', true, 77);
    expect(await kick.liveStatus(account)).toEqual({ live: true, viewers: 77 });
    expect(await kick.liveStatus({ wallet: 'w', username: 'LiveKicker', externalId: null })).toEqual({
      live: true,
      viewers: 77,
    });
    const changes: LiveStatus[] = [];
    const unwatch = kick.watch(account, (s) => changes.push(s));
    fake.setLive('livekicker', false);
    // Two offline reads in a row end it (docs/platforms.md#live-detection).
    await kick.pollNow();
    await kick.pollNow();
    expect(changes).toEqual([{ live: false, viewers: 0 }]);
    unwatch();
  });

  it('a revoked app token is replaced (client credentials) and the poll retried', async () => {
    const account = await verified('tokenkicker');
    fake.setLive('tokenkicker', true, 3);
    await kick.liveStatus(account);
    fake.revokeAppTokens();
    expect(await kick.liveStatus(account)).toEqual({ live: true, viewers: 3 });
  });

  it('the signed livestream.status.updated webhook ends a watched stream at once', async () => {
    const account = await verified('hookkicker');
    fake.setLive('hookkicker', true, 12);
    const changes: LiveStatus[] = [];
    const unwatch = kick.watch(account, (s) => changes.push(s));
    await vi_waitFor(() => fake.subscriptions.some((s) => String(s.broadcasterId) === account.externalId));
    received = [];
    fake.setLive('hookkicker', false);
    await vi_waitFor(() => changes.length > 0);
    expect(changes).toEqual([{ live: false, viewers: 0 }]);
    expect(received.at(-1)).toEqual({ status: 200 });
    unwatch();
  });

  it('refuses a webhook signed with another key or a tampered body, acknowledges a stale one, and acts on none', async () => {
    const account = await verified('forgedkicker');
    fake.setLive('forgedkicker', true, 4);
    const changes: LiveStatus[] = [];
    const unwatch = kick.watch(account, (s) => changes.push(s));
    const user = fake.users.get('forgedkicker')!;
    expect(
      await fake.deliver('livestream.status.updated', fake.statusEvent(user, false), { tamper: 'signature' }),
    ).toBe(403);
    expect(
      await fake.deliver('livestream.status.updated', fake.statusEvent(user, false), { tamper: 'body' }),
    ).toBe(403);
    // Validly signed but older than the replay window: acknowledged (Kick drops a subscription whose
    // deliveries fail), and ignored.
    const stale = new Date(Date.now() - 30 * 60_000).toISOString();
    expect(
      await fake.deliver('livestream.status.updated', fake.statusEvent(user, false), { timestamp: stale }),
    ).toBe(200);
    expect(changes).toEqual([]);
    // Headers missing: 400; webhooks off: 404.
    const res = await fetch(server.url, { method: 'POST', body: '{}' });
    expect(res.status).toBe(400);
    expect((await make({ webhooks: false }).handleWebhook({}, Buffer.from('{}'))).status).toBe(404);
    unwatch();
  });
});

describe('Kick webhook key', () => {
  const fake = new FakeKick();
  beforeAll(async () => {
    await fake.start();
  });
  afterAll(async () => {
    await fake.stop();
  });

  it('forged webhooks while Kick’s key cannot be fetched ask Kick for it once, not once each', async () => {
    const kick = new KickPlatform(kickOnFake(fake, { httpTimeoutMs: 1000 }), logger);
    fake.fail('/public/v1/public-key', { status: 503 });
    const forged = () =>
      kick.handleWebhook(
        {
          'kick-event-message-id': randomUUID(),
          'kick-event-message-timestamp': new Date().toISOString(),
          'kick-event-signature': Buffer.from('not a signature').toString('base64'),
          'kick-event-type': 'livestream.status.updated',
        },
        Buffer.from('{}'),
      );
    const atOnce = await Promise.all(Array.from({ length: 20 }, forged));
    const oneByOne = [];
    for (let i = 0; i < 20; i++) oneByOne.push(await forged());
    expect([...atOnce, ...oneByOne].map((a) => a.status)).toEqual(Array(40).fill(403));
    expect(fake.requests.filter((r) => r.path === '/public/v1/public-key')).toHaveLength(1);
    kick.stop();
  });
});

async function vi_waitFor(check: () => boolean, timeoutMs = 3000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > until) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 10));
  }
}
