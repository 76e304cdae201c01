// The platform suites' set-up: the API over a real PostgreSQL and the fake Twitch/TikTok servers, and
// requests as a signed-in beta user. A test file calls usePlatformApps() and reads the apps it asked for.
import { Keypair } from '@solana/web3.js';
import { FakeTikTok, FakeTwitch } from '@strm/testing';
import request from 'supertest';
import { afterAll, beforeAll, expect } from 'vitest';
import { issueAuthToken } from '../../src/services/auth/tokens.ts';
import { grantAccess, startTestApp, type TestApp } from './test-app.ts';

export const twitch = new FakeTwitch();
export const tiktok = new FakeTikTok();
/** Twitch and TikTok configured (the TikTok API off). */
export let t: TestApp;
/** Also the TikTok API (Login Kit and the code exchange). */
export let oauth: TestApp;
/** No platform configured. */
export let bare: TestApp;

/** Starts the fakes and the apps asked for before the file's tests; stops them after. */
export function usePlatformApps(want: { oauth?: boolean; bare?: boolean } = {}): void {
  beforeAll(async () => {
    await Promise.all([twitch.start(), tiktok.start()]);
    const env = { ...twitch.env(), ...tiktok.env(), PLATFORM_HTTP_TIMEOUT_MS: '1000' };
    t = await startTestApp({ env });
    if (want.oauth) {
      oauth = await startTestApp({
        env: {
          ...env,
          TIKTOK_API: 'on',
          TIKTOK_CLIENT_KEY: tiktok.clientKey,
          TIKTOK_CLIENT_SECRET: tiktok.clientSecret,
        },
      });
    }
    if (want.bare) bare = await startTestApp();
  }, 120_000);
  afterAll(async () => {
    await Promise.all([t?.close(), oauth?.close(), bare?.close()]);
    await Promise.all([twitch.stop(), tiktok.stop()]);
  });
}

export const newWallet = () => Keypair.generate().publicKey.toBase58();
/** Requests as `wallet`, a beta user (given access on its first request). */
export const as = (app: TestApp, wallet: string) => {
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
export async function twitchState(app: TestApp, wallet: string): Promise<string> {
  const res = await as(app, wallet).get('/twitch/auth');
  expect(res.status).toBe(200);
  return new URL(res.body.url).searchParams.get('state') ?? '';
}

/** A new beta wallet with this platform username (not verified yet). */
export async function walletWithUsername(app: TestApp, platform: 'tiktok' | 'twitch', username: string) {
  const wallet = newWallet();
  await as(app, wallet).post('/update-streamer-username', { platform, username });
  return wallet;
}
