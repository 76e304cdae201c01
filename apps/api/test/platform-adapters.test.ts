// The Twitch and TikTok adapters against local fake servers speaking those platforms' HTTP APIs,
// including every external failure: expired or revoked tokens, 429 with Retry-After, unknown users,
// timeouts and malformed answers.
import { FakeTikTok, FakeTwitch } from '@strm/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../src/logger.ts';
import type { LiveStatus } from '../src/platforms/adapter.ts';
import { PlatformError } from '../src/platforms/fetch.ts';
import { TikTokPlatform } from '../src/platforms/tiktok.ts';
import { pkceChallenge } from '../src/platforms/oauth-state.ts';
import { TwitchPlatform } from '../src/platforms/twitch.ts';

const logger = createLogger('silent');
const TIMEOUT_MS = 1000;

async function failure(promise: Promise<unknown>): Promise<PlatformError> {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(PlatformError);
  return err as PlatformError;
}

const account = (username: string, externalId: string | null = null) => ({
  wallet: 'w',
  username,
  externalId,
});

describe('Twitch adapter', () => {
  const fake = new FakeTwitch();
  let twitch: TwitchPlatform;
  const make = (over: Partial<ConstructorParameters<typeof TwitchPlatform>[0]> = {}) =>
    new TwitchPlatform(
      {
        clientId: fake.clientId,
        clientSecret: fake.clientSecret,
        authBaseUrl: fake.url,
        apiBaseUrl: fake.url,
        redirectUri: 'http://127.0.0.1:3000/callback',
        pollIntervalMs: 60_000,
        httpTimeoutMs: TIMEOUT_MS,
        ...over,
      },
      logger,
    );
  beforeAll(async () => {
    await fake.start();
    twitch = make();
  });
  afterAll(async () => {
    twitch.stop();
    await fake.stop();
  });

  it('builds the implicit-grant URL, and the token Twitch returns to /callback validates to the login', async () => {
    const url = new URL(twitch.authorizeUrl('state-of-this-attempt'));
    expect(url.origin + url.pathname).toBe(`${fake.url}/oauth2/authorize`);
    expect(url.searchParams.get('state')).toBe('state-of-this-attempt');
    expect(url.searchParams.get('client_id')).toBe(fake.clientId);
    expect(url.searchParams.get('response_type')).toBe('token');
    expect(url.searchParams.get('redirect_uri')).toBe('http://127.0.0.1:3000/callback');

    const user = fake.authorizeAs('CoolStreamer');
    // force_verify=true: Twitch shows its consent page, whose 'Authorize' posts the request back.
    expect(url.searchParams.get('force_verify')).toBe('true');
    const page = await fetch(url, { redirect: 'manual' });
    expect([page.status, await page.text()]).toEqual([200, expect.stringContaining('>Authorize</button>')]);
    const res = await fetch(`${fake.url}/oauth2/authorize`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams([...url.searchParams, ['consent', 'allow']]).toString(),
      redirect: 'manual',
    });
    expect(res.status).toBe(302);
    const location = new URL(res.headers.get('location') ?? '');
    expect(location.pathname).toBe('/callback');
    const hash = new URLSearchParams(location.hash.slice(1));
    expect(hash.get('token_type')).toBe('bearer');
    expect(hash.get('state')).toBe(url.searchParams.get('state'));
    const info = await twitch.validateToken(hash.get('access_token') ?? '');
    expect(info).toMatchObject({ login: 'coolstreamer', user_id: user.id, client_id: fake.clientId });
  });

  it('refuses without a client id configured', async () => {
    const bare = make({ clientId: undefined });
    expect(() => bare.authorizeUrl('s')).toThrow('Twitch is not configured on this server');
  });

  it('an expired, a revoked or an unknown token is refused with the re-authorise message', async () => {
    const expired = fake.issueUserToken('someone', { expiresInSeconds: -1 });
    const revoked = fake.issueUserToken('someone');
    fake.revoke(revoked);
    for (const token of [expired, revoked, 'not-a-token']) {
      const err = await failure(twitch.validateToken(token));
      expect(err.kind).toBe('unauthorized');
      expect(err.message).toBe(
        'Your Twitch authorization has expired or was revoked. Please authorize with Twitch again.',
      );
    }
  });

  it('a token issued to another application is refused', async () => {
    const err = await failure(
      twitch.validateToken(fake.issueUserToken('someone', { clientId: 'other-app' })),
    );
    expect(err.kind).toBe('unauthorized');
    expect(err.message).toMatch(/not issued to this application/);
  });

  it('429 keeps its Retry-After; 5xx, timeouts and malformed answers become clear failures', async () => {
    const token = fake.issueUserToken('someone');
    fake.fail('/oauth2/validate', { status: 429, headers: { 'retry-after': '17' } });
    let err = await failure(twitch.validateToken(token));
    expect([err.kind, err.retryAfterSeconds, err.message]).toEqual([
      'rate-limited',
      17,
      'Twitch is limiting requests; please try again in 17 seconds',
    ]);

    fake.fail('/oauth2/validate', { status: 503 });
    err = await failure(twitch.validateToken(token));
    expect([err.kind, err.message]).toEqual(['unavailable', 'Twitch could not be reached; please try again']);

    fake.fail('/oauth2/validate', { delayMs: TIMEOUT_MS * 4 });
    const started = Date.now();
    err = await failure(twitch.validateToken(token));
    expect(err.kind).toBe('unavailable');
    expect(Date.now() - started).toBeLessThan(TIMEOUT_MS * 3);

    fake.fail('/oauth2/validate', { status: 200, body: '{"login": ' });
    expect((await failure(twitch.validateToken(token))).kind).toBe('malformed');
    fake.fail('/oauth2/validate', { status: 200, body: '{"login": 42}' });
    err = await failure(twitch.validateToken(token));
    expect([err.kind, err.message]).toEqual([
      'malformed',
      'Twitch gave an unexpected answer; please try again',
    ]);

    // And the next answer is a normal one again.
    expect((await twitch.validateToken(token)).login).toBe('someone');
  });

  it('reads live state and viewers from Helix streams, by login or by user id', async () => {
    const user = fake.addUser('liveone');
    fake.setLive('liveone', true, 321);
    expect(await twitch.liveStatus(account('LiveOne'))).toEqual({ live: true, viewers: 321 });
    expect(await twitch.liveStatus(account('renamed', user.id))).toEqual({ live: true, viewers: 321 });
    fake.setLive('liveone', false);
    expect(await twitch.liveStatus(account('liveone'))).toEqual({ live: false, viewers: 0 });
    expect(await twitch.liveStatus(account('nobody-here'))).toEqual({ live: false, viewers: 0 });
  });

  it('asks Twitch for one app token however many polls need it at once', async () => {
    fake.setLive('together', true, 1);
    const fresh = make();
    const before = fake.appTokensIssued;
    const answers = await Promise.all(Array.from({ length: 5 }, () => fresh.liveStatus(account('together'))));
    expect(answers.every((a) => a.live)).toBe(true);
    expect(fake.appTokensIssued - before).toBe(1);
    fresh.stop();
  });

  it('gets a new app token when Twitch revokes it, and reports bad app credentials', async () => {
    fake.setLive('tokenuser', true, 5);
    expect((await twitch.liveStatus(account('tokenuser'))).live).toBe(true);
    fake.revokeAppTokens();
    expect((await twitch.liveStatus(account('tokenuser'))).live).toBe(true);

    const wrongSecret = make({ clientSecret: 'wrong' });
    const err = await failure(wrongSecret.liveStatus(account('tokenuser')));
    expect([err.kind, err.message]).toEqual(['unavailable', 'Failed to connect to Twitch Live']);
    const noSecret = make({ clientSecret: undefined });
    expect((await failure(noSecret.liveStatus(account('tokenuser')))).kind).toBe('unavailable');
  });

  it('a rate-limited streams request is a failure with Retry-After (Ratelimit-Reset when absent)', async () => {
    const reset = Math.floor(Date.now() / 1000) + 30;
    fake.fail('/helix/streams', { status: 429, headers: { 'ratelimit-reset': String(reset) } });
    const err = await failure(twitch.liveStatus(account('tokenuser')));
    expect(err.kind).toBe('rate-limited');
    expect(err.retryAfterSeconds).toBeGreaterThanOrEqual(29);
    expect(err.retryAfterSeconds).toBeLessThanOrEqual(31);
  });

  it('watching polls every channel in one request per 100 and reports only changes; a failed poll changes nothing', async () => {
    const logins = Array.from({ length: 150 }, (_, i) => `batch${i}`);
    for (const l of logins) fake.setLive(l, true, 1);
    const seen: Array<[string, LiveStatus]> = [];
    const unwatch = logins.map((l) => twitch.watch(account(l), (s) => seen.push([l, s])));
    const before = fake.requests.filter((r) => r.url.pathname === '/helix/streams').length;
    await twitch.pollNow();
    expect(fake.requests.filter((r) => r.url.pathname === '/helix/streams').length - before).toBe(2);
    expect(seen).toEqual([]);

    fake.setLive('batch7', false);
    fake.fail('/helix/streams', { status: 500 });
    await twitch.pollNow();
    expect(seen).toEqual([]);
    fake.fail('/helix/streams', { status: 200, body: '<html>' });
    await twitch.pollNow();
    expect(seen).toEqual([]);

    await twitch.pollNow();
    expect(seen).toEqual([['batch7', { live: false, viewers: 0 }]]);
    await twitch.pollNow();
    expect(seen).toHaveLength(1);
    for (const u of unwatch) u();
  });
});

describe('TikTok adapter', () => {
  const fake = new FakeTikTok();
  let tiktok: TikTokPlatform;
  const make = (over: Partial<ConstructorParameters<typeof TikTokPlatform>[0]> = {}) =>
    new TikTokPlatform(
      {
        webBaseUrl: fake.url,
        openApiBaseUrl: fake.url,
        pollIntervalMs: 60_000,
        httpTimeoutMs: TIMEOUT_MS,
        clientKey: fake.clientKey,
        clientSecret: fake.clientSecret,
        redirectUri: 'http://127.0.0.1:3000/callback',
        ...over,
      },
      logger,
    );
  beforeAll(async () => {
    await fake.start();
    tiktok = make();
  });
  afterAll(async () => {
    tiktok.stop();
    await fake.stop();
  });

  it('reads the bio and user id from the profile page', async () => {
    const user = fake.addUser('dancer', 'hello STRM-ABC');
    expect(await tiktok.profile('@Dancer')).toEqual({
      id: user.id,
      uniqueId: 'dancer',
      bio: 'hello STRM-ABC',
    });
    expect(fake.requests.at(-1)?.url.pathname).toBe('/@dancer');
  });

  it('an unknown user, a blocked page, 429 and timeouts are clear failures', async () => {
    let err = await failure(tiktok.profile('ghost'));
    expect([err.kind, err.message]).toEqual([
      'not-found',
      'TikTok user not found. Check the username and try again.',
    ]);
    fake.fail('/@dancer', { status: 404, body: '' });
    expect((await failure(tiktok.profile('dancer'))).kind).toBe('not-found');
    fake.fail('/@dancer', { status: 200, body: '<html>captcha</html>' });
    expect((await failure(tiktok.profile('dancer'))).kind).toBe('malformed');
    fake.fail('/@dancer', { status: 429, headers: { 'retry-after': '42' } });
    err = await failure(tiktok.profile('dancer'));
    expect([err.kind, err.retryAfterSeconds]).toEqual(['rate-limited', 42]);
    fake.fail('/@dancer', { delayMs: TIMEOUT_MS * 4 });
    expect((await failure(tiktok.profile('dancer'))).kind).toBe('unavailable');
  });

  it('tells live from the room-info endpoint with the viewer count', async () => {
    fake.setLive('dancer', true, 77);
    expect(await tiktok.liveStatus(account('@Dancer'))).toEqual({ live: true, viewers: 77 });
    const asked = fake.requests.at(-1)?.url;
    expect(asked?.pathname).toBe('/api-live/user/room/');
    expect(asked?.searchParams.get('uniqueId')).toBe('dancer');
    expect(asked?.searchParams.get('sourceType')).toBe('54');
    fake.setLive('dancer', false);
    expect(await tiktok.liveStatus(account('dancer'))).toEqual({ live: false, viewers: 0 });
    fake.addUser('neverlive');
    expect(await tiktok.liveStatus(account('neverlive'))).toEqual({ live: false, viewers: 0 });
  });

  it('room-info: an unknown user is offline (fail closed); API error codes, malformed, 429, timeout fail', async () => {
    expect(await tiktok.liveStatus(account('ghost'))).toEqual({ live: false, viewers: 0 });
    fake.fail('/api-live/user/room/', {
      status: 200,
      body: '{"statusCode": 10011, "message": "params error"}',
    });
    expect((await failure(tiktok.liveStatus(account('dancer')))).kind).toBe('malformed');
    fake.fail('/api-live/user/room/', { status: 200, body: 'not json' });
    expect((await failure(tiktok.liveStatus(account('dancer')))).kind).toBe('malformed');
    fake.fail('/api-live/user/room/', { status: 429, headers: { 'retry-after': '5' } });
    expect((await failure(tiktok.liveStatus(account('dancer')))).retryAfterSeconds).toBe(5);
    fake.fail('/api-live/user/room/', { delayMs: TIMEOUT_MS * 4 });
    expect((await failure(tiktok.liveStatus(account('dancer')))).kind).toBe('unavailable');
  });

  it('watching reports the end of a live; a failed poll ends nothing', async () => {
    fake.setLive('watcher', true, 3);
    const seen: LiveStatus[] = [];
    const unwatch = tiktok.watch(account('watcher'), (s) => seen.push(s));
    await tiktok.pollNow();
    fake.setLive('watcher', false);
    fake.fail('/api-live/user/room/', { status: 502 });
    await tiktok.pollNow();
    expect(seen).toEqual([]);
    // One offline read is not enough; the second in a row ends it (docs/platforms.md#live-detection).
    await tiktok.pollNow();
    expect(seen).toEqual([]);
    await tiktok.pollNow();
    expect(seen).toEqual([{ live: false, viewers: 0 }]);
    unwatch();
  });

  it('exchanges a Login Kit code for a token and the TikTok username', async () => {
    fake.addUser('oauthuser');
    const verifier = 'v'.repeat(64);
    const result = await tiktok.exchangeCode(fake.issueCode('oauthuser', pkceChallenge(verifier)), verifier);
    expect(result.username).toBe('oauthuser');
    expect(result.accessToken).toMatch(/^act\./);
    const err = await failure(tiktok.exchangeCode('used-or-unknown', verifier));
    expect([err.kind, err.message]).toEqual(['unauthorized', 'Failed to exchange code for token']);
    const wrong = make({ clientSecret: 'nope' });
    expect((await failure(wrong.exchangeCode(fake.issueCode('oauthuser'), verifier))).kind).toBe(
      'unauthorized',
    );
    // PKCE: a code is exchanged only with the verifier of the challenge it was issued for.
    const stolen = fake.issueCode('oauthuser', pkceChallenge(verifier));
    expect((await failure(tiktok.exchangeCode(stolen, 'w'.repeat(64)))).kind).toBe('unauthorized');
    expect((await tiktok.exchangeCode(stolen, verifier)).username).toBe('oauthuser');
  });
});
