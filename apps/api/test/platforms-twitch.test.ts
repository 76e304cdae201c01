// Twitch verification (docs/product.md#verification): the access token, the account's one owner, and the
// OAuth state the server makes per attempt. Over a real PostgreSQL and the fake Twitch server.
import { describe, expect, it } from 'vitest';
import { adminQuery, type TestApp } from './support/test-app.ts';
import {
  as,
  newWallet,
  t,
  twitch,
  twitchState,
  usePlatformApps,
  walletWithUsername,
} from './support/platforms.ts';

usePlatformApps();

describe('Twitch verification (POST /verify-streamer with the access token)', () => {
  const withUsername = (app: TestApp, username: string) => walletWithUsername(app, 'twitch', username);

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
  const ready = (username: string) => walletWithUsername(t, 'twitch', username);
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
