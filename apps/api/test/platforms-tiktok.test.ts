// TikTok verification (docs/product.md#verification): a code in the bio, and the TikTok API's code exchange
// behind its flag. Over a real PostgreSQL and the fake TikTok server.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { TestApp } from './support/test-app.ts';
import { as, newWallet, oauth, t, tiktok, usePlatformApps, walletWithUsername } from './support/platforms.ts';

usePlatformApps({ oauth: true });

describe('TikTok verification (a code in the bio)', () => {
  const tiktokWallet = (app: TestApp, username: string) => walletWithUsername(app, 'tiktok', username);

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

  it('a bad or used code gives the exchange-failure message', async () => {
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
