// The platform endpoints over a real PostgreSQL and the fake Twitch/TikTok servers: every answer and every
// error a caller can get (spec §7, §8).
import { createHash } from 'node:crypto';
import { Keypair } from '@solana/web3.js';
import { FakeTikTok, FakeTwitch } from '@strm/testing';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueAuthToken } from '../src/services/auth/tokens.ts';
import { adminQuery, grantAccess, startTestApp, type TestApp } from './support.ts';

const twitch = new FakeTwitch();
const tiktok = new FakeTikTok();
let t: TestApp;
let oauth: TestApp;
let bare: TestApp;

beforeAll(async () => {
  await Promise.all([twitch.start(), tiktok.start()]);
  const env = { ...twitch.env(), ...tiktok.env(), PLATFORM_HTTP_TIMEOUT_MS: '1000' };
  t = await startTestApp({ env });
  oauth = await startTestApp({
    env: {
      ...env,
      TIKTOK_API: 'on',
      TIKTOK_CLIENT_KEY: tiktok.clientKey,
      TIKTOK_CLIENT_SECRET: tiktok.clientSecret,
    },
  });
  bare = await startTestApp();
}, 120_000);
afterAll(async () => {
  await Promise.all([t?.close(), oauth?.close(), bare?.close()]);
  await Promise.all([twitch.stop(), tiktok.stop()]);
});

const newWallet = () => Keypair.generate().publicKey.toBase58();
/** Requests as `wallet`, a beta user (given access on its first request). */
const as = (app: TestApp, wallet: string) => {
  const auth = `Bearer ${issueAuthToken(app.config, wallet, app.clock)}`;
  const access = grantAccess(app.prisma, wallet);
  return {
    get: async (path: string) => {
      await access;
      return request(app.app).get(`/api/v1${path}`).set('Authorization', auth);
    },
    post: async (path: string, body: unknown) => {
      await access;
      return request(app.app)
        .post(`/api/v1${path}`)
        .set('Authorization', auth)
        .send(body as object);
    },
  };
};

/** The state of a Twitch authorisation the wallet starts now (GET /twitch/auth), as Twitch returns it. */
async function twitchState(app: TestApp, wallet: string): Promise<string> {
  const res = await as(app, wallet).get('/twitch/auth');
  expect(res.status).toBe(200);
  return new URL(res.body.url).searchParams.get('state') ?? '';
}

describe('every platform endpoint needs a signed-in wallet', () => {
  it.each([
    ['get', '/twitch/auth'],
    ['get', '/streamer-platforms'],
    ['post', '/update-streamer-username'],
    ['post', '/streamer-validation'],
    ['post', '/verify-streamer'],
    ['post', '/tiktok/exchange-code'],
    ['get', '/tiktok/auth'],
  ] as const)('%s %s → 401', async (method, path) => {
    const res = await request(t.app)[method](`/api/v1${path}`);
    expect(res.status).toBe(401);
  });
});

describe('GET /twitch/auth', () => {
  it('answers { url }: the implicit grant returning to /callback with the configured client id', async () => {
    const res = await as(t, newWallet()).get('/twitch/auth');
    expect(res.status).toBe(200);
    const url = new URL(res.body.url);
    expect(`${url.origin}${url.pathname}`).toBe(`${twitch.url}/oauth2/authorize`);
    expect(url.searchParams.get('client_id')).toBe(twitch.clientId);
    expect(url.searchParams.get('response_type')).toBe('token');
    expect(url.searchParams.get('redirect_uri')).toBe('http://127.0.0.1:3000/callback');
  });

  it('503 with a clear message when no Twitch client id is configured', async () => {
    const res = await as(bare, newWallet()).get('/twitch/auth');
    expect(res.status).toBe(503);
    expect(res.body.message).toBe('Twitch is not configured on this server');
  });
});

describe('usernames and platform status', () => {
  it('lists both platforms, unverified with no username, for a new wallet', async () => {
    const wallet = newWallet();
    const res = await as(t, wallet).get(`/streamer-platforms?wallet=${wallet}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      success: true,
      platforms: [
        { platform: 'tiktok', isVerified: false, username: null },
        { platform: 'twitch', isVerified: false, username: null },
      ],
    });
  });

  it("refuses another wallet's status", async () => {
    const res = await as(t, newWallet()).get(`/streamer-platforms?wallet=${newWallet()}`);
    expect(res.status).toBe(403);
  });

  it('stores usernames normalised (no leading @, lower case)', async () => {
    const wallet = newWallet();
    const res = await as(t, wallet).post('/update-streamer-username', {
      platform: 'tiktok',
      username: ' @Dance.Queen_1 ',
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      success: true,
      platform: 'tiktok',
      username: 'dance.queen_1',
      isVerified: false,
    });
    const status = await as(t, wallet).get('/streamer-platforms');
    expect(status.body.platforms[0]).toEqual({
      platform: 'tiktok',
      isVerified: false,
      username: 'dance.queen_1',
    });
  });

  it.each([
    [{ platform: 'tiktok', username: '' }, 'Username is required'],
    [{ platform: 'tiktok', username: 'no spaces' }, 'Invalid username'],
    [{ platform: 'kick', username: 'abc' }, undefined],
  ])('refuses %j with 400', async (body, message) => {
    const res = await as(t, newWallet()).post('/update-streamer-username', body);
    expect(res.status).toBe(400);
    if (message) expect(res.body.message).toBe(message);
  });
});

describe('Twitch verification (POST /verify-streamer with the access token)', () => {
  async function withUsername(app: TestApp, username: string) {
    const wallet = newWallet();
    await as(app, wallet).post('/update-streamer-username', { platform: 'twitch', username });
    return wallet;
  }

  it('verifies when the token belongs to the username; the status then shows it verified', async () => {
    const wallet = await withUsername(t, '@GoodStreamer');
    const token = twitch.issueUserToken('goodstreamer');
    const res = await as(t, wallet).post('/verify-streamer', {
      platform: 'twitch',
      accessToken: token,
      accessTokenExp: 14_400,
      state: await twitchState(t, wallet),
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      success: true,
      message: 'Your Twitch account is verified',
      platform: 'twitch',
      username: 'goodstreamer',
      isVerified: true,
    });
    const status = await as(t, wallet).get('/streamer-platforms');
    expect(status.body.platforms[1]).toEqual({
      platform: 'twitch',
      isVerified: true,
      username: 'goodstreamer',
    });
    const row = await t.prisma.platformAccount.findFirst({ where: { wallet, platform: 'twitch' } });
    expect(row?.externalId).toBe(twitch.users.get('goodstreamer')?.id);
  });

  it('needs a token and a username first', async () => {
    let res = await as(t, await withUsername(t, 'someone')).post('/verify-streamer', { platform: 'twitch' });
    expect([res.status, res.body.message]).toEqual([400, 'Please authorize with Twitch first']);
    const noName = newWallet();
    res = await as(t, noName).post('/verify-streamer', {
      platform: 'twitch',
      accessToken: 'x',
      state: await twitchState(t, noName),
    });
    expect([res.status, res.body.message]).toEqual([400, 'Please enter your Twitch username.']);
  });

  it('refuses a token of another Twitch account than the username', async () => {
    const wallet = await withUsername(t, 'victim');
    const res = await as(t, wallet).post('/verify-streamer', {
      platform: 'twitch',
      accessToken: twitch.issueUserToken('attacker'),
      state: await twitchState(t, wallet),
    });
    expect(res.status).toBe(403);
    expect(res.body.message).toMatch(/^This Twitch authorization is for attacker, not victim\./);
    expect((await as(t, wallet).get('/streamer-platforms')).body.platforms[1].isVerified).toBe(false);
  });

  it('expired or revoked tokens get 401 with the re-authorise message', async () => {
    const wallet = await withUsername(t, 'expiring');
    const expired = twitch.issueUserToken('expiring', { expiresInSeconds: -5 });
    const res = await as(t, wallet).post('/verify-streamer', {
      platform: 'twitch',
      accessToken: expired,
      state: await twitchState(t, wallet),
    });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({
      error: 'platform_token_invalid',
      message: 'Your Twitch authorization has expired or was revoked. Please authorize with Twitch again.',
    });
  });

  it('Twitch rate limiting answers 429 with Retry-After; an outage or a malformed answer 502', async () => {
    const wallet = await withUsername(t, 'busy');
    const accessToken = twitch.issueUserToken('busy');
    // Each try comes back from an authorisation of its own (a state is used once, whatever follows).
    const verify = async () =>
      as(t, wallet).post('/verify-streamer', {
        platform: 'twitch',
        accessToken,
        state: await twitchState(t, wallet),
      });
    twitch.fail('/oauth2/validate', { status: 429, headers: { 'retry-after': '12' } });
    let res = await verify();
    expect(res.status).toBe(429);
    expect(res.headers['retry-after']).toBe('12');
    expect(res.body.message).toBe('Twitch is limiting requests; please try again in 12 seconds');
    twitch.fail('/oauth2/validate', { delayMs: 3000 });
    res = await verify();
    expect([res.status, res.body.message]).toEqual([502, 'Twitch could not be reached; please try again']);
    twitch.fail('/oauth2/validate', { status: 200, body: '{}' });
    res = await verify();
    expect([res.status, res.body.message]).toEqual([
      502,
      'Twitch gave an unexpected answer; please try again',
    ]);
    // Nothing was lost: the same token verifies once Twitch answers again.
    res = await verify();
    expect(res.status).toBe(200);
  });

  it('one verified owner per Twitch account: a second wallet gets 409, also through the database', async () => {
    const first = await withUsername(t, 'Popular');
    expect(
      (
        await as(t, first).post('/verify-streamer', {
          platform: 'twitch',
          accessToken: twitch.issueUserToken('popular'),
          state: await twitchState(t, first),
        })
      ).status,
    ).toBe(200);
    const second = await withUsername(t, 'popular');
    const res = await as(t, second).post('/verify-streamer', {
      platform: 'twitch',
      accessToken: twitch.issueUserToken('popular'),
      state: await twitchState(t, second),
    });
    expect(res.status).toBe(409);
    expect(res.body.message).toBe('This Twitch account is already verified by another wallet');
    // The rule holds in PostgreSQL itself, whatever the code does.
    await expect(
      adminQuery(
        t.databaseUrl,
        `UPDATE platform_accounts SET is_verified = true WHERE wallet = $1 AND platform = 'twitch'`,
        [second],
      ),
    ).rejects.toThrow(/platform_accounts_one_verified_owner/);
  });
});

describe('the Twitch OAuth state: made per attempt by the server, bound to the wallet, used once', () => {
  async function ready(username: string) {
    const wallet = newWallet();
    await as(t, wallet).post('/update-streamer-username', { platform: 'twitch', username });
    return wallet;
  }
  const verify = (wallet: string, login: string, state?: string) =>
    as(t, wallet).post('/verify-streamer', {
      platform: 'twitch',
      accessToken: twitch.issueUserToken(login),
      state,
    });
  const invalid = [
    400,
    'This authorization was not started from your dashboard or was already used. Please authorize again.',
  ];
  const verified = async (wallet: string) =>
    (await as(t, wallet).get('/streamer-platforms')).body.platforms[1].isVerified as boolean;

  it('gives every attempt a new state', async () => {
    const wallet = newWallet();
    const states = new Set([await twitchState(t, wallet), await twitchState(t, wallet)]);
    expect(states.size).toBe(2);
    for (const state of states) expect(state.length).toBeGreaterThanOrEqual(32);
  });

  it('refuses a token without a state or with a state the server never made', async () => {
    const wallet = await ready('forged_state');
    let res = await verify(wallet, 'forged_state');
    expect([res.status, res.body.message]).toEqual(invalid);
    res = await verify(wallet, 'forged_state', 'a'.repeat(32));
    expect([res.status, res.body.message]).toEqual(invalid);
    expect(await verified(wallet)).toBe(false);
  });

  it('refuses a state used once already (a replay)', async () => {
    const wallet = await ready('replayed');
    const state = await twitchState(t, wallet);
    expect((await verify(wallet, 'replayed', state)).status).toBe(200);
    const other = await ready('replayed_two');
    await as(t, wallet).post('/update-streamer-username', { platform: 'twitch', username: 'replayed_two' });
    const res = await verify(wallet, 'replayed_two', state);
    expect([res.status, res.body.message]).toEqual(invalid);
    expect(await verified(other)).toBe(false);
  });

  it('refuses an expired state (10 minutes)', async () => {
    const wallet = await ready('slowpoke');
    const state = await twitchState(t, wallet);
    t.clock.advance(10 * 60_000);
    const res = await verify(wallet, 'slowpoke', state);
    expect([res.status, res.body.message]).toEqual([
      400,
      'This authorization took too long and has expired. Please authorize again.',
    ]);
    expect(await verified(wallet)).toBe(false);
  });

  it("refuses another wallet's state, which its own wallet can still use", async () => {
    const victim = await ready('victim_state');
    const attacker = await ready('attacker_state');
    const state = await twitchState(t, victim);
    const res = await verify(attacker, 'attacker_state', state);
    expect([res.status, res.body.message]).toEqual(invalid);
    expect(await verified(attacker)).toBe(false);
    expect((await verify(victim, 'victim_state', state)).status).toBe(200);
  });
});

describe('TikTok verification (a code in the bio)', () => {
  async function tiktokWallet(app: TestApp, username: string) {
    const wallet = newWallet();
    await as(app, wallet).post('/update-streamer-username', { platform: 'tiktok', username });
    return wallet;
  }

  it('generates a code that expires in 15 minutes, and verifies once the bio carries it', async () => {
    tiktok.addUser('biouser', 'just vibes');
    const wallet = await tiktokWallet(t, '@BioUser');
    const gen = await as(t, wallet).post('/streamer-validation', { platform: 'tiktok', wallet });
    expect(gen.status).toBe(200);
    expect(gen.body.success).toBe(true);
    expect(gen.body.verificationCode).toMatch(/^STRM-[A-Z2-9]{8}$/);
    expect(gen.body.message).toContain(gen.body.verificationCode);
    expect(Date.parse(gen.body.expiresAt) - t.clock.now().getTime()).toBe(15 * 60_000);

    let res = await as(t, wallet).post('/verify-streamer', { platform: 'tiktok' });
    expect([res.status, res.body.message]).toEqual([
      400,
      'The verification code was not found in your TikTok bio. Save it in your bio, then verify again.',
    ]);
    tiktok.setBio('biouser', `just vibes ${gen.body.verificationCode}`);
    res = await as(t, wallet).post('/verify-streamer', {
      platform: 'tiktok',
      verificationCode: gen.body.verificationCode,
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      success: true,
      message: 'Your TikTok account is verified',
      isVerified: true,
    });
    expect((await as(t, wallet).get('/streamer-platforms')).body.platforms[0]).toEqual({
      platform: 'tiktok',
      isVerified: true,
      username: 'biouser',
    });
    res = await as(t, wallet).post('/streamer-validation', { platform: 'tiktok', wallet });
    expect([res.status, res.body.message]).toEqual([409, 'Your TikTok account is already verified']);
  });

  it('an expired code is refused (410) and a new one works', async () => {
    tiktok.addUser('slowuser');
    const wallet = await tiktokWallet(t, 'slowuser');
    const first = await as(t, wallet).post('/streamer-validation', { platform: 'tiktok', wallet });
    tiktok.setBio('slowuser', first.body.verificationCode);
    t.clock.advance(15 * 60_000 + 1);
    let res = await as(t, wallet).post('/verify-streamer', { platform: 'tiktok' });
    expect([res.status, res.body.message]).toEqual([
      410,
      'Your verification code has expired. Please generate a new code.',
    ]);
    const second = await as(t, wallet).post('/streamer-validation', { platform: 'tiktok', wallet });
    tiktok.setBio('slowuser', second.body.verificationCode);
    res = await as(t, wallet).post('/verify-streamer', { platform: 'tiktok' });
    expect(res.status).toBe(200);
  });

  it('refusals: no username, no code, a code hint that is not ours, another wallet, Twitch', async () => {
    const noName = newWallet();
    let res = await as(t, noName).post('/streamer-validation', { platform: 'tiktok', wallet: noName });
    expect([res.status, res.body.message]).toEqual([400, 'Please enter your TikTok username.']);
    res = await as(t, noName).post('/streamer-validation', { platform: 'tiktok', wallet: newWallet() });
    expect(res.status).toBe(403);
    res = await as(t, noName).post('/streamer-validation', { platform: 'twitch', wallet: noName });
    expect([res.status, res.body.message]).toEqual([
      400,
      'Twitch accounts are verified by authorizing with Twitch',
    ]);

    tiktok.addUser('hintuser');
    const wallet = await tiktokWallet(t, 'hintuser');
    res = await as(t, wallet).post('/verify-streamer', { platform: 'tiktok' });
    expect([res.status, res.body.message]).toEqual([400, 'Please generate a verification code first']);
    await as(t, wallet).post('/streamer-validation', { platform: 'tiktok', wallet });
    res = await as(t, wallet).post('/verify-streamer', {
      platform: 'tiktok',
      verificationCode: 'STRM-WRONGONE',
    });
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/^This is not the verification code generated for your account/);
  });

  it('TikTok failures: unknown user 404, rate limit 429 with Retry-After, timeout 502; the code survives them', async () => {
    const ghost = await tiktokWallet(t, 'ghost_user_x');
    await as(t, ghost).post('/streamer-validation', { platform: 'tiktok', wallet: ghost });
    let res = await as(t, ghost).post('/verify-streamer', { platform: 'tiktok' });
    expect([res.status, res.body.message]).toEqual([
      404,
      'TikTok user not found. Check the username and try again.',
    ]);

    tiktok.addUser('flaky');
    const wallet = await tiktokWallet(t, 'flaky');
    const gen = await as(t, wallet).post('/streamer-validation', { platform: 'tiktok', wallet });
    tiktok.setBio('flaky', gen.body.verificationCode);
    tiktok.fail('/@flaky', { status: 429, headers: { 'retry-after': '30' } });
    res = await as(t, wallet).post('/verify-streamer', { platform: 'tiktok' });
    expect([res.status, res.headers['retry-after']]).toEqual([429, '30']);
    tiktok.fail('/@flaky', { delayMs: 3000 });
    res = await as(t, wallet).post('/verify-streamer', { platform: 'tiktok' });
    expect([res.status, res.body.message]).toEqual([502, 'TikTok could not be reached; please try again']);
    res = await as(t, wallet).post('/verify-streamer', { platform: 'tiktok' });
    expect(res.status).toBe(200);
  });

  it('one verified owner per TikTok account; changing username unverifies', async () => {
    tiktok.addUser('shared');
    const owner = await tiktokWallet(t, 'shared');
    const code = (await as(t, owner).post('/streamer-validation', { platform: 'tiktok', wallet: owner })).body
      .verificationCode;
    tiktok.setBio('shared', code);
    expect((await as(t, owner).post('/verify-streamer', { platform: 'tiktok' })).status).toBe(200);

    const other = await tiktokWallet(t, '@SHARED');
    const res = await as(t, other).post('/streamer-validation', { platform: 'tiktok', wallet: other });
    expect([res.status, res.body.message]).toEqual([
      409,
      'This TikTok account is already verified by another wallet',
    ]);

    const renamed = await as(t, owner).post('/update-streamer-username', {
      platform: 'tiktok',
      username: 'newname',
    });
    expect(renamed.body).toEqual({
      success: true,
      platform: 'tiktok',
      username: 'newname',
      isVerified: false,
    });
  });
});

describe('POST /tiktok/exchange-code (the TikTok API flag)', () => {
  /** GET /tiktok/auth, then TikTok's authorize page as `login` consents: the code and state it returns. */
  async function authorizeTikTok(wallet: string, login: string) {
    const res = await as(oauth, wallet).get('/tiktok/auth');
    expect(res.status).toBe(200);
    const url = new URL(res.body.url);
    tiktok.authorizeAs(login);
    const back = await fetch(url, { redirect: 'manual' });
    expect(back.status).toBe(302);
    const location = new URL(back.headers.get('location') ?? '');
    return {
      url,
      code: location.searchParams.get('code') ?? '',
      state: location.searchParams.get('state') ?? '',
    };
  }

  it('is off by default: 404 with a clear message', async () => {
    let res = await as(t, newWallet()).post('/tiktok/exchange-code', { code: 'abc' });
    expect([res.status, res.body.message]).toEqual([404, 'TikTok sign-in is not enabled on this server']);
    res = await as(t, newWallet()).get('/tiktok/auth');
    expect([res.status, res.body.message]).toEqual([404, 'TikTok sign-in is not enabled on this server']);
  });

  it('when on, exchanges the code with PKCE and verifies the TikTok username it names', async () => {
    tiktok.addUser('CodeFlow');
    const wallet = newWallet();
    const { url, code, state } = await authorizeTikTok(wallet, 'codeflow');
    expect(`${url.origin}${url.pathname}`).toBe(`${tiktok.url}/v2/auth/authorize/`);
    expect(url.searchParams.get('client_key')).toBe(tiktok.clientKey);
    expect(url.searchParams.get('response_type')).toBe('code');
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
    expect(state).toBe(url.searchParams.get('state'));
    const res = await as(oauth, wallet).post('/tiktok/exchange-code', { code, state });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      success: true,
      username: 'codeflow',
      message: 'Your TikTok account is verified',
    });
    expect(res.body.access_token).toMatch(/^act\./);
    // The verifier sent to TikTok hashes (S256) to the challenge the authorize URL carried; it never left
    // the server otherwise.
    const sent = tiktok.tokenRequests.at(-1)!;
    const verifier = sent.get('code_verifier') ?? '';
    expect(verifier).toMatch(/^[A-Za-z0-9_~.-]{43,128}$/);
    expect(createHash('sha256').update(verifier).digest('base64url')).toBe(
      url.searchParams.get('code_challenge'),
    );
    expect(url.toString()).not.toContain(verifier);
    expect((await as(oauth, wallet).get('/streamer-platforms')).body.platforms[0]).toEqual({
      platform: 'tiktok',
      isVerified: true,
      username: 'codeflow',
    });
  });

  it('a bad or used code gives the spec message', async () => {
    const wallet = newWallet();
    const { state } = await authorizeTikTok(wallet, 'staleuser');
    const res = await as(oauth, wallet).post('/tiktok/exchange-code', { code: 'stale', state });
    expect([res.status, res.body.message]).toEqual([400, 'Failed to exchange code for token']);
    expect((await as(oauth, newWallet()).post('/tiktok/exchange-code', {})).status).toBe(400);
  });

  it("refuses a forged, replayed, expired or another wallet's state, and a code another attempt's verifier does not match", async () => {
    const invalid = [
      400,
      'This authorization was not started from your dashboard or was already used. Please authorize again.',
    ];
    const victim = newWallet();
    const attacker = newWallet();
    const exchange = (wallet: string, body: object) => as(oauth, wallet).post('/tiktok/exchange-code', body);

    const first = await authorizeTikTok(victim, 'pkce_victim');
    let res = await exchange(victim, { code: first.code });
    expect([res.status, res.body.message]).toEqual(invalid);
    res = await exchange(victim, { code: first.code, state: 'forged-state-forged-state-forged' });
    expect([res.status, res.body.message]).toEqual(invalid);
    res = await exchange(attacker, { code: first.code, state: first.state });
    expect([res.status, res.body.message]).toEqual(invalid);
    expect((await exchange(victim, { code: first.code, state: first.state })).status).toBe(200);
    res = await exchange(victim, { code: first.code, state: first.state });
    expect([res.status, res.body.message]).toEqual(invalid);

    const slow = await authorizeTikTok(victim, 'pkce_victim');
    oauth.clock.advance(10 * 60_000);
    res = await exchange(victim, { code: slow.code, state: slow.state });
    expect([res.status, res.body.message]).toEqual([
      400,
      'This authorization took too long and has expired. Please authorize again.',
    ]);

    // A code intercepted from the victim's attempt, sent with the attacker's own valid state: TikTok
    // refuses it, since the attacker's verifier does not match the victim's challenge.
    const intercepted = await authorizeTikTok(victim, 'pkce_victim');
    const own = await authorizeTikTok(attacker, 'pkce_attacker');
    res = await exchange(attacker, { code: intercepted.code, state: own.state });
    expect([res.status, res.body.message]).toEqual([400, 'Failed to exchange code for token']);
    expect(tiktok.tokenRequests.at(-1)?.get('code')).toBe(intercepted.code);
    expect((await as(oauth, attacker).get('/streamer-platforms')).body.platforms[0].isVerified).toBe(false);
  });
});
