// Twitch live detection through the engine: a real server (Socket.IO, PostgreSQL, the local chain) whose
// Twitch adapter polls the fake Twitch; the client is socket.io-client as the browser's.
import { createHmac } from 'node:crypto';
import { FakeTikTok, FakeTwitch, freePort } from '@strm/testing';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueAuthToken } from '../src/services/auth/tokens.ts';
import { grantAccess } from './support/test-app.ts';
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
  verifiedDemoAccount,
  waitFor,
} from './support/engine-harness.ts';

const POLL_MS = 1000;
const twitch = new FakeTwitch();
const tiktok = new FakeTikTok();
let chain: TestChain;
let server: EngineServer;
/** The same product with EventSub configured and polling too slow to matter (10 minutes). */
let pushed: EngineServer;
const EVENTSUB_SECRET = 'eventsub-test-secret-0123';
beforeAll(async () => {
  await Promise.all([twitch.start(), tiktok.start()]);
  chain = await startTestChain();
  server = await startEngineServer(chain, {
    env: {
      ...twitch.env(),
      ...tiktok.env(),
      TWITCH_POLL_INTERVAL_MS: String(POLL_MS),
      TIKTOK_POLL_INTERVAL_MS: String(POLL_MS),
      PLATFORM_HTTP_TIMEOUT_MS: '1000',
      // Three failed polls in a row below (fail closed ends a session at this many: session-validity tests).
      PLATFORM_MAX_FAILED_POLLS: '5',
    },
  });
  const port = await freePort();
  pushed = await startEngineServer(chain, {
    port,
    env: {
      ...twitch.env(),
      TWITCH_POLL_INTERVAL_MS: '600000',
      TWITCH_EVENTSUB_CALLBACK_URL: `http://127.0.0.1:${port}/api/v1/twitch/eventsub`,
      TWITCH_EVENTSUB_SECRET: EVENTSUB_SECRET,
    },
  });
}, 180_000);
afterAll(async () => {
  await pushed?.close();
  await pushed?.drop();
  await server?.close();
  await server?.drop();
  await chain?.stop();
  await Promise.all([twitch.stop(), tiktok.stop()]);
});

/** A wallet with Tier 1 active, its Twitch account verified through the REST flow, and a socket. */
async function twitchStreamer(login: string, target: EngineServer = server) {
  const { keypair, signature } = await activatedWallet(chain);
  const wallet = keypair.publicKey.toBase58();
  await grantAccess(target.prisma, wallet);
  const auth = `Bearer ${issueAuthToken(target.config, wallet, target.clock)}`;
  await request(target.app.app)
    .post('/api/v1/update-streamer-username')
    .set('Authorization', auth)
    .send({ platform: 'twitch', username: login })
    .expect(200);
  // The state of an authorisation this wallet started (GET /twitch/auth), as Twitch returns it.
  const authorize = await request(target.app.app)
    .get('/api/v1/twitch/auth')
    .set('Authorization', auth)
    .expect(200);
  const state = new URL(authorize.body.url).searchParams.get('state');
  await request(target.app.app)
    .post('/api/v1/verify-streamer')
    .set('Authorization', auth)
    .send({ platform: 'twitch', accessToken: twitch.issueUserToken(login), state })
    .expect(200);
  const socket = await connect(target, wallet);
  const activated = await socketRequest(socket, 'activate-tier', { signature, tier: 'Tier 1' }, [
    'tier-activated',
    'tier-error',
  ]);
  expect(activated.event).toBe('tier-activated');
  return { wallet, login, socket };
}

/** What Twitch answered about `login` from its `from`th streams answer on: live or not, each. */
const twitchSaid = (login: string, from = 0) =>
  twitch.streamAnswers
    .slice(from)
    .filter((a) => a.asked.includes(login))
    .map((a) => a.live.includes(login));

const start = (s: { socket: Client; wallet: string; login: string }) =>
  socketRequest(
    s.socket,
    'start-stream',
    { platform: 'twitch', wallet: s.wallet, username: s.login, tier: 'Tier 1' },
    ['stream-started', 'room-error', 'error', 'twitch:not-live'],
  );

describe('Twitch live detection in the engine', () => {
  it('refuses to start while the channel is offline, with twitch:not-live', async () => {
    const s = await twitchStreamer('offline_streamer');
    const answer = await start(s);
    expect(answer).toEqual({
      event: 'twitch:not-live',
      payload: { message: 'Your Twitch stream is not live. Go live on Twitch, then connect again.' },
    });
    s.socket.close();
  });

  it('a Twitch stream going offline ends the session at the second poll that reads it offline', async () => {
    const s = await twitchStreamer('going_offline');
    twitch.setLive('going_offline', true, 40);
    const startedFrom = twitch.streamAnswers.length;
    const started = await start(s);
    expect(started.event).toBe('stream-started');
    // A poll of the live session sees it live (after the start's own question), then it goes offline.
    await waitFor(() => twitchSaid('going_offline', startedFrom).filter(Boolean).length >= 2, POLL_MS * 5);
    const stopped = next(s.socket, 'stream-stopped', POLL_MS * 5);
    const notLive = next(s.socket, 'twitch:not-live', POLL_MS * 5);
    const offlineFrom = twitch.streamAnswers.length;
    twitch.setLive('going_offline', false);
    const payload = await stopped;
    expect(payload).toMatchObject({ reason: 'not-live' });
    expect((await notLive).message).toBe(
      'Your Twitch stream is not live. Go live on Twitch, then connect again.',
    );
    // Ended by the second poll that read it offline (docs/platforms.md#live-detection): asked twice since.
    expect(twitchSaid('going_offline', offlineFrom)).toEqual([false, false]);
    expect(server.app.services.engine.isLive(s.wallet)).toBe(false);
    const row = await server.prisma.miningSession.findFirst({ where: { wallet: s.wallet } });
    expect(row?.endReason).toBe('not-live');
    expect(row?.endedAt).not.toBeNull();
    s.socket.close();
  });

  it('Twitch failing to answer (5xx, 429, timeouts) fewer than PLATFORM_MAX_FAILED_POLLS times in a row neither ends a live session nor stalls the engine', async () => {
    const s = await twitchStreamer('flaky_twitch');
    twitch.setLive('flaky_twitch', true, 3);
    expect((await start(s)).event).toBe('stream-started');
    twitch.fail('/helix/streams', { status: 503, times: 1 });
    twitch.fail('/helix/streams', { status: 429, headers: { 'retry-after': '1' }, times: 1 });
    twitch.fail('/helix/streams', { delayMs: 3000, times: 1 });
    const before = twitch.requests.filter((r) => r.url.pathname === '/helix/streams').length;
    await waitFor(
      () => twitch.requests.filter((r) => r.url.pathname === '/helix/streams').length >= before + 4,
      10_000,
    );
    expect(server.app.services.engine.isLive(s.wallet)).toBe(true);
    // The engine still answers its sockets meanwhile.
    const stop = await socketRequest(s.socket, 'stop-stream', { platform: 'twitch', wallet: s.wallet }, [
      'stream-stopped',
      'error',
    ]);
    expect(stop.event).toBe('stream-stopped');
    s.socket.close();
  });

  it('one platform live at a time: live on the demo platform, Twitch is refused', async () => {
    const s = await twitchStreamer('two_platforms');
    await verifiedDemoAccount(server, s.wallet, 'demo_two_platforms');
    server.demo.setLive('demo_two_platforms', true, 1);
    twitch.setLive('two_platforms', true, 1);
    const demo = await socketRequest(
      s.socket,
      'start-stream',
      { platform: 'demo', wallet: s.wallet, username: 'demo_two_platforms', tier: 'Tier 1' },
      ['stream-started', 'room-error', 'error'],
    );
    expect(demo.event).toBe('stream-started');
    const answer = await start(s);
    expect(answer).toEqual({
      event: 'error',
      payload: expect.objectContaining({
        message: 'You are already mining in another tab or on another platform',
      }),
    });
    const rename = await request(server.app.app)
      .post('/api/v1/update-streamer-username')
      .set('Authorization', `Bearer ${issueAuthToken(server.config, s.wallet, server.clock)}`)
      .send({ platform: 'twitch', username: 'another_name' });
    expect([rename.status, rename.body.message]).toEqual([
      409,
      'Cannot change your username while mining is active',
    ]);
    s.socket.close();
  });
});

describe('Twitch EventSub (TWITCH_EVENTSUB_CALLBACK_URL set)', () => {
  const sign = (id: string, timestamp: string, body: string, secret = EVENTSUB_SECRET) =>
    `sha256=${createHmac('sha256', secret)
      .update(id + timestamp + body)
      .digest('hex')}`;
  const post = (headers: Record<string, string>, body: string) =>
    request(pushed.app.app)
      .post('/api/v1/twitch/eventsub')
      .set({ 'Content-Type': 'application/json', ...headers })
      .send(body);

  it('subscribes to stream.offline when a session starts, and ends it when Twitch pushes offline', async () => {
    const s = await twitchStreamer('pushed_offline', pushed);
    twitch.setLive('pushed_offline', true, 8);
    expect((await start(s)).event).toBe('stream-started');
    const user = twitch.users.get('pushed_offline');
    const sub = await waitFor(() =>
      twitch.subscriptions.find((x) => x.broadcasterId === user?.id && x.status === 'enabled'),
    );
    expect(sub.type).toBe('stream.offline');
    const stopped = next(s.socket, 'stream-stopped', 5000);
    const offlineFrom = twitch.streamAnswers.length;
    twitch.setLive('pushed_offline', false);
    expect(await stopped).toMatchObject({ reason: 'not-live' });
    // Polling runs every 10 minutes here, and Twitch was not asked since: only the push can have ended it.
    expect(twitchSaid('pushed_offline', offlineFrom)).toEqual([]);
    s.socket.close();
  });

  it('a subscription Twitch revokes for failed deliveries is made again while the session runs', async () => {
    const s = await twitchStreamer('revoked_sub', pushed);
    twitch.setLive('revoked_sub', true, 8);
    expect((await start(s)).event).toBe('stream-started');
    const user = twitch.users.get('revoked_sub');
    const first = await waitFor(() =>
      twitch.subscriptions.find((x) => x.broadcasterId === user?.id && x.status === 'enabled'),
    );
    expect(await twitch.revokeSubscriptions('revoked_sub')).toEqual([204]);
    const again = await waitFor(() =>
      twitch.subscriptions.find((x) => x.broadcasterId === user?.id && x.status === 'enabled'),
    );
    expect(again.id).not.toBe(first.id);
    s.socket.close();
  });

  it('refuses unsigned and wrongly signed messages; a stale or repeated one is acknowledged and ignored', async () => {
    const body = JSON.stringify({ challenge: 'abc', subscription: { id: 'x', type: 'stream.offline' } });
    const now = new Date().toISOString();
    const headers = (id: string, timestamp: string, signature: string) => ({
      'Twitch-Eventsub-Message-Id': id,
      'Twitch-Eventsub-Message-Timestamp': timestamp,
      'Twitch-Eventsub-Message-Signature': signature,
      'Twitch-Eventsub-Message-Type': 'webhook_callback_verification',
    });
    expect((await post({}, body)).status).toBe(400);
    expect((await post(headers('m1', now, sign('m1', now, body, 'another-secret-value')), body)).status).toBe(
      403,
    );
    // Validly signed but older than the replay window: acknowledged (a refusal counts as a failed delivery),
    // and nothing in it is acted on (no challenge answered).
    const old = new Date(Date.now() - 11 * 60_000).toISOString();
    const stale = await post(headers('m2', old, sign('m2', old, body)), body);
    expect([stale.status, stale.text]).toEqual([204, '']);
    const ok = await post(headers('m3', now, sign('m3', now, body)), body);
    expect([ok.status, ok.text]).toEqual([200, 'abc']);
    expect((await post(headers('m3', now, sign('m3', now, body)), body)).status).toBe(204);
  });
});

describe('TikTok live detection in the engine', () => {
  it('verifies by bio code, mines while live with the viewer count, and ends when the LIVE ends', async () => {
    const { keypair, signature } = await activatedWallet(chain);
    const wallet = keypair.publicKey.toBase58();
    await grantAccess(server.prisma, wallet);
    const auth = `Bearer ${issueAuthToken(server.config, wallet, server.clock)}`;
    const api = (path: string, body: object) =>
      request(server.app.app).post(`/api/v1${path}`).set('Authorization', auth).send(body);
    tiktok.addUser('tiktoker');
    await api('/update-streamer-username', { platform: 'tiktok', username: '@TikToker' }).expect(200);
    const code = (await api('/streamer-validation', { platform: 'tiktok', wallet }).expect(200)).body
      .verificationCode as string;
    tiktok.setBio('tiktoker', `mining ${code}`);
    await api('/verify-streamer', { platform: 'tiktok' }).expect(200);

    const socket = await connect(server, wallet);
    expect(
      (
        await socketRequest(socket, 'activate-tier', { signature, tier: 'Tier 1' }, [
          'tier-activated',
          'tier-error',
        ])
      ).event,
    ).toBe('tier-activated');
    const startTikTok = () =>
      socketRequest(
        socket,
        'start-stream',
        { platform: 'tiktok', wallet, username: 'tiktoker', tier: 'Tier 1' },
        ['stream-started', 'room-error', 'error'],
      );
    expect(await startTikTok()).toEqual({
      event: 'room-error',
      payload: expect.objectContaining({ message: 'Your stream is not live' }),
    });

    tiktok.setLive('tiktoker', true, 250);
    const joined = await socketRequest(socket, 'join-room', { platform: 'tiktok', walletId: wallet }, [
      'room-data',
      'room-error',
    ]);
    expect(joined.payload).toMatchObject({ isLive: true, viewers: 250 });
    const startedFrom = tiktok.roomAnswers.length;
    expect((await startTikTok()).event).toBe('stream-started');
    // A poll of the live session sees it live (after the start's own question), then the LIVE ends.
    const tiktokSaid = (from: number) =>
      tiktok.roomAnswers
        .slice(from)
        .filter((a) => a.uniqueId === 'tiktoker')
        .map((a) => a.live);
    await waitFor(() => tiktokSaid(startedFrom).filter(Boolean).length >= 2, POLL_MS * 5);
    const stopped = next(socket, 'stream-stopped', POLL_MS * 5);
    const offlineFrom = tiktok.roomAnswers.length;
    tiktok.setLive('tiktoker', false);
    expect(await stopped).toMatchObject({ reason: 'not-live' });
    // Ended by the second offline read in a row (docs/platforms.md#live-detection).
    expect(tiktokSaid(offlineFrom)).toEqual([false, false]);
    socket.close();
  });
});
