import type { LiveState } from '@strm/shared';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { initialSocketState } from '../../lib/socket.ts';
import { type FakeRoutes, signedInWithFakeApi } from '../../testing/fake-api.ts';
import { PlatformPanel } from './PlatformPanel.tsx';

const wallet = '9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin';
const idle: LiveState = { ...initialSocketState, connected: true };

let routes: FakeRoutes;
const calls = signedInWithFakeApi(() => routes);

const platformsAnswer = (twitch: { isVerified: boolean; username: string | null }) => () => ({
  status: 200,
  body: {
    success: true,
    platforms: [
      { platform: 'tiktok', isVerified: false, username: null },
      { platform: 'twitch', ...twitch },
    ],
  },
});

function renderPanel(platform: 'tiktok' | 'twitch', live = idle, activeTier: string | null = 'Tier 1') {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <PlatformPanel platform={platform} wallet={wallet} activeTier={activeTier} live={live} />
    </QueryClientProvider>,
  );
}

describe('Twitch panel', () => {
  it('opens a 600x800 popup with the authorization URL, then verifies a same-origin TWITCH_AUTH token only', async () => {
    routes = {
      'GET /streamer-platforms': platformsAnswer({ isVerified: false, username: null }),
      'POST /update-streamer-username': () => ({
        status: 200,
        body: { success: true, platform: 'twitch', username: 'ada', isVerified: false },
      }),
      'GET /twitch/auth': () => ({
        status: 200,
        body: { url: 'https://id.twitch.example/oauth2/authorize?x=1' },
      }),
      'POST /verify-streamer': () => ({
        status: 403,
        body: { error: 'forbidden', message: 'This Twitch authorization is for bob, not ada.' },
      }),
    };
    const open = vi.spyOn(window, 'open').mockReturnValue({} as Window);
    renderPanel('twitch');
    const button = await screen.findByRole('button', { name: 'Connect With Twitch' });
    expect((button as HTMLButtonElement).disabled).toBe(true);
    fireEvent.change(screen.getByLabelText('Twitch username'), { target: { value: 'ada' } });
    fireEvent.click(button);
    await waitFor(() => expect(open).toHaveBeenCalled());
    expect(open.mock.calls[0]![0]).toBe('https://id.twitch.example/oauth2/authorize?x=1');
    expect(open.mock.calls[0]![2]).toMatch(/^width=600,height=800,/);
    expect(calls.find((c) => c.path === '/update-streamer-username')?.body).toEqual({
      platform: 'twitch',
      username: 'ada',
    });

    // Another origin, or a message without a token, is ignored.
    act(() => {
      window.dispatchEvent(
        new MessageEvent('message', {
          origin: 'https://evil.example',
          data: { type: 'TWITCH_AUTH', access_token: 'x' },
        }),
      );
      window.dispatchEvent(
        new MessageEvent('message', { origin: window.location.origin, data: { type: 'TWITCH_AUTH' } }),
      );
    });
    expect(calls.some((c) => c.path === '/verify-streamer')).toBe(false);

    act(() => {
      window.dispatchEvent(
        new MessageEvent('message', {
          origin: window.location.origin,
          data: { type: 'TWITCH_AUTH', access_token: 'tok', expires_in: 3600, state: 'st4te' },
        }),
      );
    });
    expect((await screen.findByRole('alert')).textContent).toBe(
      'This Twitch authorization is for bob, not ada.',
    );
    expect(calls.find((c) => c.path === '/verify-streamer')?.body).toEqual({
      platform: 'twitch',
      accessToken: 'tok',
      accessTokenExp: 3600,
      state: 'st4te',
    });
  });

  it("says 'Failed to open Twitch authorization' when the popup is blocked", async () => {
    routes = {
      'GET /streamer-platforms': platformsAnswer({ isVerified: false, username: 'ada' }),
      'POST /update-streamer-username': () => ({
        status: 200,
        body: { success: true, platform: 'twitch', username: 'ada', isVerified: false },
      }),
      'GET /twitch/auth': () => ({ status: 200, body: { url: 'https://id.twitch.example/x' } }),
    };
    vi.spyOn(window, 'open').mockReturnValue(null);
    renderPanel('twitch');
    await waitFor(() =>
      expect((screen.getByLabelText('Twitch username') as HTMLInputElement).value).toBe('ada'),
    );
    fireEvent.click(screen.getByRole('button', { name: 'Connect With Twitch' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Failed to open Twitch authorization');
  });

  it("verified: 'Start Mining', disabled with the no-tier warning when no tier is active", async () => {
    routes = { 'GET /streamer-platforms': platformsAnswer({ isVerified: true, username: 'ada' }) };
    renderPanel('twitch', idle, null);
    expect(
      ((await screen.findByRole('button', { name: 'Start Mining' })) as HTMLButtonElement).disabled,
    ).toBe(true);
    expect(screen.getByText('Verified')).toBeTruthy();
    expect(screen.getByText('You must activate a mining tier before connecting to Twitch Live')).toBeTruthy();
  });

  it("live: the username, a 'Live' badge and 'Disconnect'", async () => {
    routes = { 'GET /streamer-platforms': platformsAnswer({ isVerified: true, username: 'ada' }) };
    renderPanel('twitch', { ...idle, isLive: true, platform: 'twitch' });
    await screen.findByText('Live');
    expect(screen.getByRole('button', { name: 'Disconnect' })).toBeTruthy();
  });

  it("shows 'We are Down for Maintenance!' during maintenance", async () => {
    routes = { 'GET /streamer-platforms': platformsAnswer({ isVerified: true, username: 'ada' }) };
    renderPanel('twitch', { ...idle, maintenance: true });
    expect((await screen.findByRole('alert')).textContent).toBe('We are Down for Maintenance!');
  });

  it("says 'Failed to load platform status' when the platforms cannot be read", async () => {
    routes = {
      'GET /streamer-platforms': () => ({ status: 500, body: { error: 'internal', message: 'boom' } }),
    };
    renderPanel('twitch');
    expect((await screen.findByRole('alert')).textContent).toBe('Failed to load platform status');
  });
});

describe('TikTok panel', () => {
  it('generates a code, shows the four steps, and verifies with the server message on failure', async () => {
    routes = {
      'GET /streamer-platforms': platformsAnswer({ isVerified: false, username: null }),
      'POST /update-streamer-username': () => ({
        status: 200,
        body: { success: true, platform: 'tiktok', username: 'ada', isVerified: false },
      }),
      'POST /streamer-validation': () => ({
        status: 200,
        body: {
          success: true,
          verificationCode: 'STRM-ABCD1234',
          message: 'Put this code in your TikTok bio',
        },
      }),
      // Held in flight until the test has seen the button say so.
      'POST /verify-streamer': () =>
        new Promise((resolve) => {
          answerVerify = () =>
            resolve({
              status: 400,
              body: {
                error: 'bad_request',
                message:
                  'The verification code was not found in your TikTok bio. Save it in your bio, then verify again.',
              },
            });
        }),
    };
    let answerVerify: (() => void) | undefined;
    const open = vi.spyOn(window, 'open').mockReturnValue(null);
    renderPanel('tiktok');
    const generate = await screen.findByRole('button', { name: 'Generate Code' });
    expect((generate as HTMLButtonElement).disabled).toBe(true);
    fireEvent.change(screen.getByLabelText('TikTok username'), { target: { value: '@ada' } });
    fireEvent.click(generate);
    await screen.findByText('STRM-ABCD1234');
    expect(screen.getAllByRole('listitem')).toHaveLength(4);
    fireEvent.click(screen.getByRole('button', { name: 'Verify Account' }));
    const verifying = await screen.findByRole('button', { name: 'Verifying...' });
    expect(verifying.hasAttribute('disabled')).toBe(true);
    expect(open).toHaveBeenCalledWith('https://www.tiktok.com/@ada', '_blank', 'noopener');
    await waitFor(() => expect(answerVerify).toBeDefined());
    act(() => answerVerify?.());
    expect((await screen.findByRole('alert')).textContent).toBe(
      'The verification code was not found in your TikTok bio. Save it in your bio, then verify again.',
    );
    expect(calls.find((c) => c.path === '/verify-streamer')?.body).toEqual({
      platform: 'tiktok',
      verificationCode: 'STRM-ABCD1234',
    });
  });

  it("shows the server's message when a code cannot be generated", async () => {
    routes = {
      'GET /streamer-platforms': platformsAnswer({ isVerified: false, username: null }),
      'POST /update-streamer-username': () => ({
        status: 409,
        body: { error: 'conflict', message: 'This TikTok account is already verified by another wallet' },
      }),
    };
    renderPanel('tiktok');
    fireEvent.change(await screen.findByLabelText('TikTok username'), { target: { value: 'ada' } });
    fireEvent.click(screen.getByRole('button', { name: 'Generate Code' }));
    expect((await screen.findByRole('alert')).textContent).toBe(
      'This TikTok account is already verified by another wallet',
    );
  });
});
