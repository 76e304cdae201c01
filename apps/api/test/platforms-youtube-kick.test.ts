// YouTube Live and Kick end to end, as Twitch's flows: the OAuth code grant through the REST API
// (the state this wallet started, PKCE, the account's one owner), then live detection in the engine (a real
// server: Socket.IO, PostgreSQL, the local chain) against the fake YouTube and the fake Kick: refused while
// offline with <platform>:not-live, mining while live, ended when the stream ends; YouTube's quota exhausted
// ends live sessions by the fail-closed rule and one wallet cannot spend it for the others; Kick's signed webhook ends a session, a forged one is refused.
import { SERVER_MESSAGES } from '@strm/shared';
import { FakeKick, FakeYouTube, freePort } from '@strm/testing';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.ts';
import { issueAuthToken } from '../src/services/auth/tokens.ts';
import {
  activatedWallet,
  type Client,
  connect,
  type EngineServer,
  next,
  request as socketRequest,
  startEngineServer,
  startTestChain,
  type TestChain,
  waitFor,
} from './support/engine-harness.ts';
import { grantAccess, startTestApp, type TestApp } from './support/test-app.ts';

const POLL_MS = 1000;
const youtube = new FakeYouTube();
const kick = new FakeKick();
let chain: TestChain;
let server: EngineServer;
/** No platform configured. */
let bare: TestApp;
beforeAll(async () => {
  await Promise.all([youtube.start(), kick.start()]);
  chain = await startTestChain();
  const port = await freePort();
  server = await startEngineServer(chain, {
    port,
    env: {
      ...youtube.env(),
      ...kick.env(),
      YOUTUBE_POLL_INTERVAL_MS: String(POLL_MS),
      KICK_POLL_INTERVAL_MS: String(POLL_MS),
      KICK_WEBHOOKS: 'on',
      // A wallet here joins, starts and maybe starts again: 3 lookups (the quota burner spends it all).
      YOUTUBE_WALLET_DAILY_UNITS: '6',
      PLATFORM_HTTP_TIMEOUT_MS: '1000',
      // Many wallets from one address in this file.
      RATE_LIMIT_PER_MINUTE: '10000',
    },
  });
  kick.webhookUrl = `http://127.0.0.1:${port}/api/v1/kick/webhook`;
  bare = await startTestApp();
}, 180_000);
afterAll(async () => {
  await bare?.close();
  await server?.close();
  await server?.drop();
  await chain?.stop();
  await Promise.all([youtube.stop(), kick.stop()]);
});

type Platform = 'youtube' | 'kick';
/** Requests as `wallet` to the engine server, or to `bare`. */
const api = (target: EngineServer | TestApp, wallet: string) => {
  const auth = `Bearer ${issueAuthToken(target.config, wallet, target.clock)}`;
  const express = target === bare ? bare.app : server.app.app;
  return {
    get: (path: string) => request(express).get(`/api/v1${path}`).set('Authorization', auth),
    post: (path: string, body: object) =>
      request(express).post(`/api/v1${path}`).set('Authorization', auth).send(body),
  };
};

/** The wallet starts an authorisation (GET /<platform>/auth) and the platform's user consents: code + state. */
async function authorize(platform: Platform, wallet: string, as: string) {
  const res = await api(server, wallet).get(`/${platform}/auth`).expect(200);
  const url = new URL(res.body.url);
  const state = url.searchParams.get('state') ?? '';
  expect(state.startsWith(`${platform}.`)).toBe(true);
  const subject = platform === 'youtube' ? youtube.addChannel(as).id : String(kick.addUser(as).id);
  const fake = platform === 'youtube' ? youtube : kick;
  const code = fake.oauth.issueCode(subject, {
    redirectUri: url.searchParams.get('redirect_uri') ?? '',
    challenge: url.searchParams.get('code_challenge') ?? '',
  });
  return { code, state };
}

async function betaWallet(): Promise<string> {
  const { Keypair } = await import('@solana/web3.js');
  const wallet = Keypair.generate().publicKey.toBase58();
  await grantAccess(server.prisma, wallet);
  return wallet;
}

describe.each(['youtube', 'kick'] as const)('%s verification (the code grant with PKCE)', (platform) => {
  const name = platform === 'youtube' ? 'YouTube' : 'Kick';

  it('verifies the account the platform names; the status then shows it verified', async () => {
    const wallet = await betaWallet();
    const { code, state } = await authorize(platform, wallet, `Verified_${platform}`);
    const res = await api(server, wallet).post(`/${platform}/exchange-code`, { code, state });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      success: true,
      message: `Your ${name} account is verified`,
      platform,
      username: `verified_${platform}`,
      isVerified: true,
    });
    const status = await api(server, wallet).get('/streamer-platforms').expect(200);
    expect(status.body.platforms).toContainEqual({
      platform,
      isVerified: true,
      username: `verified_${platform}`,
    });
    const row = await server.prisma.platformAccount.findFirst({ where: { wallet, platform } });
    if (platform === 'youtube') {
      expect(row?.externalId).toBe(youtube.channels.get(`verified_${platform}`)?.id);
      // The refresh token is kept, sealed.
      expect(row?.oauthRefreshToken).toEqual(expect.any(String));
      expect([...youtube.oauth.refreshTokens.keys()]).not.toContain(row?.oauthRefreshToken);
    } else {
      expect(row?.externalId).toBe(String(kick.users.get(`verified_${platform}`)?.id));
    }
  });

  it('one owner: the same account authorised by another wallet is refused', async () => {
    const first = await betaWallet();
    let grant = await authorize(platform, first, `owned_${platform}`);
    await api(server, first).post(`/${platform}/exchange-code`, grant).expect(200);
    const second = await betaWallet();
    grant = await authorize(platform, second, `owned_${platform}`);
    const res = await api(server, second).post(`/${platform}/exchange-code`, grant);
    expect([res.status, res.body.message]).toEqual([
      409,
      `This ${name} account is already verified by another wallet`,
    ]);
    const status = await api(server, second).get('/streamer-platforms');
    expect(status.body.platforms.find((p: { platform: string }) => p.platform === platform).isVerified).toBe(
      false,
    );
  });

  it('refuses a state this wallet did not start, a used one, and a code the platform refuses', async () => {
    const wallet = await betaWallet();
    const other = await betaWallet();
    const grant = await authorize(platform, other, `stolen_${platform}`);
    let res = await api(server, wallet).post(`/${platform}/exchange-code`, grant);
    expect([res.status, res.body.message]).toEqual([
      400,
      'This authorization was not started from your dashboard or was already used. Please authorize again.',
    ]);
    const mine = await authorize(platform, wallet, `mine_${platform}`);
    res = await api(server, wallet).post(`/${platform}/exchange-code`, { ...mine, code: 'not-a-code' });
    expect([res.status, res.body.message]).toEqual([
      401,
      `${name} did not accept this authorization. Please connect with ${name} again.`,
    ]);
    res = await api(server, wallet).post(`/${platform}/exchange-code`, mine);
    expect(res.status).toBe(400);
  });

  it('is verified by connecting, not by /verify-streamer or a bio code', async () => {
    const wallet = await betaWallet();
    const res = await api(server, wallet).post('/verify-streamer', { platform });
    expect([res.status, res.body.message]).toEqual([
      400,
      `${name} accounts are verified by connecting with ${name}`,
    ]);
  });

  it('says it is not configured on a server without its credentials', async () => {
    const wallet = (await import('@solana/web3.js')).Keypair.generate().publicKey.toBase58();
    await grantAccess(bare.prisma, wallet);
    const res = await api(bare, wallet).get(`/${platform}/auth`);
    expect([res.status, res.body.message]).toEqual([503, `${name} is not configured on this server`]);
  });
});

describe('configuration', () => {
  it('refuses half a platform configuration', () => {
    expect(() => loadConfig({ YOUTUBE_CLIENT_ID: 'id', YOUTUBE_CLIENT_SECRET: 's' })).toThrow(
      /^Invalid environment variable YOUTUBE_API_KEY: required with YOUTUBE_CLIENT_ID and YOUTUBE_CLIENT_SECRET/,
    );
    expect(() => loadConfig({ KICK_CLIENT_SECRET: 's' })).toThrow(
      /^Invalid environment variable KICK_CLIENT_ID: required with KICK_CLIENT_SECRET/,
    );
  });
});

/** A wallet with Tier 1 active, its account verified through the REST flow, and a socket. */
async function streamer(platform: Platform, as: string) {
  const { keypair, signature } = await activatedWallet(chain);
  const wallet = keypair.publicKey.toBase58();
  await grantAccess(server.prisma, wallet);
  const grant = await authorize(platform, wallet, as);
  await api(server, wallet).post(`/${platform}/exchange-code`, grant).expect(200);
  const socket = await connect(server, wallet);
  const activated = await socketRequest(socket, 'activate-tier', { signature, tier: 'Tier 1' }, [
    'tier-activated',
    'tier-error',
  ]);
  expect(activated.event).toBe('tier-activated');
  return { wallet, username: as.toLowerCase(), socket, platform };
}

const start = (s: { socket: Client; wallet: string; username: string; platform: Platform }) =>
  socketRequest(
    s.socket,
    'start-stream',
    { platform: s.platform, wallet: s.wallet, username: s.username, tier: 'Tier 1' },
    ['stream-started', 'room-error', 'error', `${s.platform}:not-live`],
  );

describe.each(['youtube', 'kick'] as const)('%s live detection in the engine', (platform) => {
  const name = platform === 'youtube' ? 'YouTube' : 'Kick';
  const setLive = (u: string, live: boolean, viewers = 0) =>
    platform === 'youtube' ? youtube.setLive(u, live, viewers) : kick.setLive(u, live, viewers);

  it(`refuses to start while offline, with ${platform}:not-live`, async () => {
    const s = await streamer(platform, `offline_${platform}`);
    expect(await start(s)).toEqual({
      event: `${platform}:not-live`,
      payload: { message: `Your ${name} stream is not live. Go live on ${name}, then connect again.` },
    });
    s.socket.close();
  });

  it('mines while live, and the stream ending ends the session within a poll', async () => {
    const s = await streamer(platform, `ending_${platform}`);
    setLive(s.username, true, 40);
    const started = await start(s);
    expect(started.event).toBe('stream-started');
    await new Promise((r) => setTimeout(r, POLL_MS * 1.5));
    const stopped = next(s.socket, 'stream-stopped', POLL_MS * 4);
    const notLive = next(s.socket, `${platform}:not-live`, POLL_MS * 4);
    if (platform === 'kick') kick.webhookUrl = null; // polling alone here (the webhook has its own test)
    setLive(s.username, false);
    const payload = await stopped;
    if (platform === 'kick') kick.webhookUrl = `${server.url}/api/v1/kick/webhook`;
    expect(payload).toMatchObject({ reason: 'not-live' });
    expect((await notLive).message).toBe(
      `Your ${name} stream is not live. Go live on ${name}, then connect again.`,
    );
    const row = await server.prisma.miningSession.findFirst({ where: { wallet: s.wallet } });
    expect([row?.platform, row?.endReason]).toEqual([platform, 'not-live']);
    s.socket.close();
  });
});

describe.each([
  ['youtube', '/youtube/v3/videos'],
  ['kick', '/public/v1/channels'],
] as const)('%s failing to answer', (platform, path) => {
  it('fewer than PLATFORM_MAX_FAILED_POLLS times in a row (5xx, a timeout) neither ends a live session nor stalls the engine', async () => {
    const s = await streamer(platform, `flaky_${platform}`);
    const fake = platform === 'youtube' ? youtube : kick;
    if (platform === 'youtube') youtube.setLive(s.username, true, 3);
    else kick.setLive(s.username, true, 3);
    expect((await start(s)).event).toBe('stream-started');
    fake.fail(path, { status: 503, times: 1 });
    fake.fail(path, { delayMs: 3000, times: 1 });
    const asked = () => fake.requests.filter((r) => r.url.pathname === path).length;
    const before = asked();
    await waitFor(() => asked() >= before + 3, 10_000);
    expect(server.app.services.engine.isLive(s.wallet)).toBe(true);
    const stop = await socketRequest(s.socket, 'stop-stream', { platform, wallet: s.wallet }, [
      'stream-stopped',
      'error',
    ]);
    expect(stop.event).toBe('stream-stopped');
    s.socket.close();
  });
});

describe('a YouTube grant Google refuses (invalid_grant)', () => {
  it('marks the account "reconnect needed" at once: the status says so, and a start is refused with the reason', async () => {
    const s = await streamer('youtube', 'revoked_tuber');
    youtube.oauth.revokeRefreshTokens(youtube.channels.get('revoked_tuber')!.id);
    youtube.setLive('revoked_tuber', true, 2);
    const refused = await start(s);
    expect(refused.payload).toMatchObject({
      message: 'Your YouTube authorization has expired or was revoked. Please connect with YouTube again.',
    });
    const status = await api(server, s.wallet).get('/streamer-platforms').expect(200);
    expect(status.body.platforms).toContainEqual({
      platform: 'youtube',
      isVerified: true,
      username: 'revoked_tuber',
      reconnectNeeded: true,
    });
    s.socket.close();
  });
});

describe('the YouTube quota burner', () => {
  it("one wallet sending join-room {platform:'youtube'} over and over costs at most its own budget; another streamer starts meanwhile", async () => {
    const burner = await streamer('youtube', 'burner_tuber');
    const other = await streamer('youtube', 'other_tuber');
    const calls = () => youtube.calls('liveBroadcasts') + youtube.calls('videos');
    const before = calls();
    // As many as the socket's event limit lets one connection send.
    for (let i = 0; i < 20; i++) {
      const joined = await socketRequest(
        burner.socket,
        'join-room',
        { platform: 'youtube', walletId: burner.wallet },
        ['joined-room', 'room-error', 'error'],
      );
      expect([i, joined]).toMatchObject([i, { event: 'joined-room' }]);
    }
    // Its own budget (YOUTUBE_WALLET_DAILY_UNITS, 6 here) at most; what a join reads is kept for a minute.
    expect(calls() - before).toBeLessThanOrEqual(6);
    youtube.setLive('other_tuber', true, 3);
    expect((await start(other)).event).toBe('stream-started');
    // (Before the quota test below: after Google's quotaExceeded this server asks nothing until midnight Pacific.)
    burner.socket.close();
    other.socket.close();
  });
});

describe('YouTube quota', () => {
  it('exhausted: live sessions read unknown and end by the fail-closed rule, new starts are refused with a clear message, units are in /metrics', async () => {
    const live = await streamer('youtube', 'quota_live');
    const late = await streamer('youtube', 'quota_late');
    youtube.setLive('quota_live', true, 5);
    expect((await start(live)).event).toBe('stream-started');
    const stopped = next(live.socket, 'stream-stopped', POLL_MS * 20);
    youtube.exhaustQuota();
    // The stream may still be live, but nobody can confirm it: it earns nothing past PLATFORM_MAX_FAILED_POLLS.
    expect(await stopped).toMatchObject({ reason: 'not-live' });
    expect(server.app.services.engine.isLive(live.wallet)).toBe(false);
    youtube.setLive('quota_late', true, 5);
    const refused = await start(late);
    expect(refused).toEqual({
      event: 'room-error',
      payload: expect.objectContaining({
        message: expect.stringMatching(/^YouTube's daily API quota for this server is used up/),
      }),
    });
    // Verifying meanwhile is refused with the same words (429).
    const wallet = await betaWallet();
    const grant = await authorize('youtube', wallet, 'quota_new');
    const res = await api(server, wallet).post('/youtube/exchange-code', grant);
    expect([res.status, res.body.message]).toEqual([429, SERVER_MESSAGES.youtubeQuotaExhausted]);
    youtube.resetQuota();
    const metrics = await request(server.app.app).get('/metrics');
    expect(metrics.text).toMatch(/strm_youtube_quota_units_total\{method="videos.list"\} \d+/);
    expect(metrics.text).toMatch(/strm_youtube_quota_exhausted 1/);
    expect(metrics.text).toMatch(/strm_youtube_quota_units_per_1000_live_streamers_per_day \d+/);
    live.socket.close();
    late.socket.close();
  });
});

describe('Kick webhooks (KICK_WEBHOOKS=on)', () => {
  it('subscribes when a session starts; the signed livestream.status.updated ends it; forged ones are refused', async () => {
    const s = await streamer('kick', 'hooked_kicker');
    kick.setLive('hooked_kicker', true, 8);
    expect((await start(s)).event).toBe('stream-started');
    const user = kick.users.get('hooked_kicker')!;
    await waitFor(() => kick.subscriptions.find((x) => x.broadcasterId === user.id));
    expect(
      await kick.deliver('livestream.status.updated', kick.statusEvent(user, false), { tamper: 'signature' }),
    ).toBe(403);
    expect(server.app.services.engine.isLive(s.wallet)).toBe(true);
    const stopped = next(s.socket, 'stream-stopped', 5000);
    kick.setLive('hooked_kicker', false);
    expect(await stopped).toMatchObject({ reason: 'not-live' });
    expect(kick.deliveries.at(-1)).toEqual({ type: 'livestream.status.updated', status: 200 });
    s.socket.close();
  });
});
