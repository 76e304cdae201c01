// The platform endpoints' access, Twitch's authorisation URL and the usernames and status
// (docs/product.md#rest, #messages), over a real PostgreSQL and the fake Twitch/TikTok servers.
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { as, bare, newWallet, t, twitch, usePlatformApps } from './support/platforms.ts';

usePlatformApps({ bare: true });

describe('every platform endpoint needs a signed-in wallet', () => {
  it.each([
    ['get', '/twitch/auth'],
    ['get', '/streamer-platforms'],
    ['post', '/update-streamer-username'],
    ['post', '/streamer-validation'],
    ['post', '/verify-streamer'],
    ['post', '/tiktok/exchange-code'],
    ['get', '/tiktok/auth'],
    ['get', '/youtube/auth'],
    ['post', '/youtube/exchange-code'],
    ['get', '/kick/auth'],
    ['post', '/kick/exchange-code'],
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
  it('lists every platform, unverified with no username, for a new wallet', async () => {
    const wallet = newWallet();
    const res = await as(t, wallet).get(`/streamer-platforms?wallet=${wallet}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      success: true,
      platforms: [
        { platform: 'tiktok', isVerified: false, username: null },
        { platform: 'twitch', isVerified: false, username: null },
        { platform: 'youtube', isVerified: false, username: null },
        { platform: 'kick', isVerified: false, username: null },
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
    // YouTube and Kick name the account themselves when the streamer connects.
    [{ platform: 'kick', username: 'abc' }, 'Kick accounts are verified by connecting with Kick'],
    [{ platform: 'youtube', username: 'abc' }, 'YouTube accounts are verified by connecting with YouTube'],
    [
      { platform: 'mixer', username: 'abc' },
      'platform: Invalid option: expected one of "tiktok"|"twitch"|"youtube"|"kick"',
    ],
  ])('refuses %j with 400', async (body, message) => {
    const res = await as(t, newWallet()).post('/update-streamer-username', body);
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(message);
  });
});
