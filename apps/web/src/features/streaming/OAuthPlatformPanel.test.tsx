import type { LiveState } from '@strm/shared';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { initialSocketState } from '../../lib/socket.ts';
import { type FakeRoutes, signedInWithFakeApi } from '../../testing/fake-api.ts';
import { OAuthPlatformPanel } from './OAuthPlatformPanel.tsx';

const wallet = '9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin';
const idle: LiveState = { ...initialSocketState, connected: true };

let routes: FakeRoutes;
const calls = signedInWithFakeApi(() => routes);

const platformsAnswer =
  (
    platform: 'youtube' | 'kick',
    account: { isVerified: boolean; username: string | null; reconnectNeeded?: boolean },
  ) =>
  () => ({
    status: 200,
    body: {
      success: true,
      platforms: [
        { platform: 'tiktok', isVerified: false, username: null },
        { platform: 'twitch', isVerified: false, username: null },
        { platform, ...account },
      ],
    },
  });

function renderPanel(platform: 'youtube' | 'kick', configured = true) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <OAuthPlatformPanel
        platform={platform}
        wallet={wallet}
        activeTier="Tier 1"
        live={idle}
        configured={configured}
      />
    </QueryClientProvider>,
  );
}

describe.each([
  ['youtube', 'YouTube'],
  ['kick', 'Kick'],
] as const)('%s panel', (platform, name) => {
  it(`opens the consent popup, then exchanges a same-origin code for ${name} only`, async () => {
    routes = {
      'GET /streamer-platforms': platformsAnswer(platform, { isVerified: false, username: null }),
      [`GET /${platform}/auth`]: () => ({
        status: 200,
        body: { url: `https://${platform}.example/auth?x=1` },
      }),
      [`POST /${platform}/exchange-code`]: () => ({
        status: 200,
        body: {
          success: true,
          message: `Your ${name} account is verified`,
          platform,
          username: 'ada',
          isVerified: true,
        },
      }),
    };
    const open = vi.spyOn(window, 'open').mockReturnValue({} as Window);
    renderPanel(platform);
    fireEvent.click(await screen.findByRole('button', { name: `Connect With ${name}` }));
    await waitFor(() => expect(open).toHaveBeenCalled());
    expect(open.mock.calls[0]![0]).toBe(`https://${platform}.example/auth?x=1`);
    expect(open.mock.calls[0]![2]).toMatch(/^width=600,height=800,/);
    const other = platform === 'youtube' ? 'kick' : 'youtube';
    act(() => {
      window.dispatchEvent(
        new MessageEvent('message', {
          origin: 'https://evil.example',
          data: { type: 'OAUTH_CODE', platform, code: 'c', state: `${platform}.s` },
        }),
      );
      window.dispatchEvent(
        new MessageEvent('message', {
          origin: window.location.origin,
          data: { type: 'OAUTH_CODE', platform: other, code: 'c', state: `${other}.s` },
        }),
      );
    });
    expect(calls.some((c) => c.path === `/${platform}/exchange-code`)).toBe(false);
    act(() => {
      window.dispatchEvent(
        new MessageEvent('message', {
          origin: window.location.origin,
          data: { type: 'OAUTH_CODE', platform, code: 'the-code', state: `${platform}.s` },
        }),
      );
    });
    expect(await screen.findByText(`Your ${name} account is verified`)).toBeTruthy();
    expect(calls.find((c) => c.path === `/${platform}/exchange-code`)?.body).toEqual({
      code: 'the-code',
      state: `${platform}.s`,
    });
    open.mockRestore();
  });

  it('says the platform is off when the server has no credentials for it', async () => {
    routes = { 'GET /streamer-platforms': platformsAnswer(platform, { isVerified: false, username: null }) };
    renderPanel(platform, false);
    expect(await screen.findByText(`${name} is not configured on this server`)).toBeTruthy();
    expect(screen.queryByRole('button', { name: `Connect With ${name}` })).toBeNull();
  });

  it('verified: Start Mining, as Twitch', async () => {
    routes = { 'GET /streamer-platforms': platformsAnswer(platform, { isVerified: true, username: 'ada' }) };
    renderPanel(platform);
    expect(await screen.findByRole('button', { name: 'Start Mining' })).toBeTruthy();
  });

  it('a grant the platform refused: says so and offers to connect again, not Start Mining', async () => {
    routes = {
      'GET /streamer-platforms': platformsAnswer(platform, {
        isVerified: true,
        username: 'ada',
        reconnectNeeded: true,
      }),
    };
    renderPanel(platform);
    expect(
      await screen.findByText(
        `Your ${name} authorization has expired or was revoked. Connect with ${name} again to mine.`,
      ),
    ).toBeTruthy();
    expect(screen.getByRole('button', { name: `Connect With ${name}` })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Start Mining' })).toBeNull();
  });
});
