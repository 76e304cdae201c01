import { describe, expect, it, vi } from 'vitest';
import { callbackMessage, readCallback } from './callback.ts';

const page = (path: string) => new URL(path, 'http://127.0.0.1:3000');

describe('the /callback page', () => {
  it('hands a Twitch token and its state from the hash to the opener', async () => {
    const input = readCallback(
      page('/callback#access_token=abc123&expires_in=3600&state=st4te&token_type=bearer'),
    );
    expect(await callbackMessage(input, vi.fn())).toEqual({
      type: 'TWITCH_AUTH',
      access_token: 'abc123',
      expires_in: 3600,
      state: 'st4te',
    });
  });

  it('exchanges a TikTok code through the API and hands over the access token', async () => {
    const exchange = vi.fn().mockResolvedValue({ success: true, access_token: 'tt-token' });
    const message = await callbackMessage(readCallback(page('/callback?code=xyz&state=1')), exchange);
    expect(exchange).toHaveBeenCalledWith('xyz', '1');
    expect(message).toEqual({ type: 'TIKTOK_AUTH', access_token: 'tt-token' });
  });

  it.each(['youtube', 'kick'] as const)(
    'hands a %s code and its state to the opener, which has the server exchange it',
    async (platform) => {
      const exchange = vi.fn();
      const message = await callbackMessage(
        readCallback(page(`/callback?code=c0de&state=${platform}.abc&scope=x`)),
        exchange,
      );
      expect(exchange).not.toHaveBeenCalled();
      expect(message).toEqual({ type: 'OAUTH_CODE', platform, code: 'c0de', state: `${platform}.abc` });
    },
  );

  it('reports a failed exchange with the server message or the default', async () => {
    const refused = vi.fn().mockResolvedValue({ success: false, message: 'Code expired' });
    expect(await callbackMessage({ kind: 'tiktok', code: 'c' }, refused)).toEqual({
      type: 'AUTH_ERROR',
      error: 'Code expired',
    });
    const silent = vi.fn().mockResolvedValue({ success: false });
    expect(await callbackMessage({ kind: 'tiktok', code: 'c' }, silent)).toEqual({
      type: 'AUTH_ERROR',
      error: 'Failed to exchange code for token',
    });
    const broken = vi.fn().mockRejectedValue(new Error('network'));
    expect(await callbackMessage({ kind: 'tiktok', code: 'c' }, broken)).toEqual({
      type: 'AUTH_ERROR',
      error: 'Failed to complete TikTok authorization',
    });
  });

  it('reports when neither a token nor a code came back', async () => {
    expect(await callbackMessage(readCallback(page('/callback?error=access_denied')), vi.fn())).toEqual({
      type: 'AUTH_ERROR',
      error: 'No authorization code or token found',
    });
  });
});
