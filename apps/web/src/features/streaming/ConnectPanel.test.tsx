// The states the connect panels share (ConnectPanel.tsx), driven by socket events as the server sends them:
// connecting, daily limit reached, the rate-increase reconnect notice, twitch:not-live, and the metrics list.
import type { LiveState, ServerEventName, ServerEventPayload } from '@strm/shared';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { initialSocketState } from '../../lib/socket.ts';
import { fakeApi } from '../../testing/fake-api.ts';
import { DemoPanel } from './DemoPanel.tsx';
import { PlatformPanel } from './PlatformPanel.tsx';

const socket = vi.hoisted(() => ({
  emitted: [] as Array<{ event: string; payload: unknown }>,
  listeners: new Map<string, Set<(payload: unknown) => void>>(),
}));
vi.mock('../../lib/socket.ts', async (importActual) => {
  const { useEffect, useRef } = await import('react');
  return {
    initialSocketState: (await importActual<typeof import('../../lib/socket.ts')>()).initialSocketState,
    emitSocket: (event: string, payload: unknown) => {
      socket.emitted.push({ event, payload });
      return true;
    },
    clearSocketError: () => {},
    useSocketEvent: (event: string, handler: (payload: unknown) => void) => {
      const latest = useRef(handler);
      latest.current = handler;
      useEffect(() => {
        const listener = (payload: unknown) => latest.current(payload);
        const set = socket.listeners.get(event) ?? new Set();
        set.add(listener);
        socket.listeners.set(event, set);
        return () => void set.delete(listener);
      }, [event]);
    },
  };
});

function serverSends<E extends ServerEventName>(event: E, payload: ServerEventPayload<E>) {
  act(() => {
    for (const listener of socket.listeners.get(event) ?? []) listener(payload);
  });
}

const wallet = '9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin';
const idle: LiveState = { ...initialSocketState, connected: true };

beforeEach(() => {
  localStorage.setItem('authToken', 'token');
  socket.emitted.length = 0;
  fakeApi({
    'GET /streamer-platforms': () => ({
      body: {
        success: true,
        platforms: [
          { platform: 'tiktok', isVerified: true, username: 'ada' },
          { platform: 'twitch', isVerified: true, username: 'ada' },
        ],
      },
    }),
    'PUT /dev/demo/live': () => ({ body: { success: true, username: 'ada_demo', live: true, viewers: 42 } }),
  });
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  localStorage.clear();
  sessionStorage.clear();
});

function renderPanel(platform: 'tiktok' | 'twitch' | 'youtube', live = idle) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const view = (state: LiveState) => (
    <QueryClientProvider client={client}>
      <PlatformPanel platform={platform} wallet={wallet} activeTier="Tier 1" live={state} />
    </QueryClientProvider>
  );
  const result = render(view(live));
  return { ...result, update: (state: LiveState) => result.rerender(view(state)) };
}

describe('the connect panels', () => {
  it("connect: join-room then start-stream, 'Connecting to TikTok Live...', then the daily limit mode", async () => {
    renderPanel('tiktok');
    fireEvent.click(await screen.findByRole('button', { name: 'Connect' }));
    expect(socket.emitted.map((e) => e.event)).toEqual(['join-room', 'start-stream']);
    expect(socket.emitted[1]!.payload).toEqual({
      platform: 'tiktok',
      wallet,
      username: 'ada',
      tier: 'Tier 1',
    });
    expect(screen.getByText('Connecting to TikTok Live...')).toBeTruthy();

    serverSends('dailyLimitReached', {
      message: 'Daily mining limit reached. Please try again after the cooldown period.',
      currentDailyDuration: 28_800,
    });
    const alerts = screen.getAllByRole('alert');
    expect(alerts.map((a) => a.textContent)).toEqual([
      'Daily Mining Limit ReachedDaily mining limit reached. Please try again after the cooldown period.',
    ]);
  });

  it('a socket error while connecting is a red banner and ends the connecting state', async () => {
    renderPanel('tiktok');
    fireEvent.click(await screen.findByRole('button', { name: 'Connect' }));
    serverSends('room-error', { message: 'Your stream is not live' });
    expect(screen.getByRole('alert').textContent).toBe('Your stream is not live');
    expect(screen.queryByText('Connecting to TikTok Live...')).toBeNull();
  });

  it('twitch:not-live shows the server message, live or connecting', async () => {
    const { update } = renderPanel('twitch', { ...idle, isLive: true, platform: 'twitch' });
    await screen.findByText('Live');
    update(idle);
    serverSends('twitch:not-live', {
      message: 'Your Twitch stream is not live. Go live on Twitch, then connect again.',
    });
    expect(screen.getByRole('alert').textContent).toBe(
      'Your Twitch stream is not live. Go live on Twitch, then connect again.',
    );
    expect(screen.getByRole('button', { name: 'Start Mining' })).toBeTruthy();
  });

  it('rate-increased while live: disconnects and asks to re-connect', async () => {
    renderPanel('twitch', { ...idle, isLive: true, platform: 'twitch' });
    await screen.findByText('Live');
    serverSends('rate-increased', {
      status: 'success',
      miningRate: 0.5,
      nextRateIncrease: new Date().toISOString(),
    });
    expect(socket.emitted).toEqual([
      { event: 'leave-room', payload: { platform: 'twitch', walletId: wallet } },
      { event: 'stop-stream', payload: { platform: 'twitch', wallet } },
    ]);
    expect(screen.getByRole('status').textContent).toBe(
      'Your Rate Has Increased, Please Re-Connect in order to mine with your new rate!',
    );
  });

  it('the metrics list: viewers, and TikTok likes said to be unavailable (no number)', async () => {
    const roomData = {
      platform: 'tiktok' as const,
      room: 'tiktok:ada',
      username: 'ada',
      isLive: true,
      viewers: 250,
    };
    renderPanel('tiktok', { ...idle, isLive: true, platform: 'tiktok', roomData });
    const metrics = await screen.findByTestId('tiktok-metrics');
    expect(metrics.textContent).toContain('Viewers250');
    expect(metrics.textContent).toContain('LikesUnavailable');
    expect(metrics.textContent).not.toMatch(/Likes\s*\d/);
  });

  it('the Twitch metrics list has viewers only (Twitch has no likes)', async () => {
    const roomData = {
      platform: 'twitch' as const,
      room: 'twitch:ada',
      username: 'ada',
      isLive: true,
      viewers: 7,
    };
    renderPanel('twitch', { ...idle, isLive: true, platform: 'twitch', roomData });
    const metrics = await screen.findByTestId('twitch-metrics');
    expect(metrics.textContent).toBe('Viewers7');
  });

  it('YouTube viewers the owner hid are Unknown, not 0', async () => {
    const roomData = {
      platform: 'youtube' as const,
      room: 'youtube:ada',
      username: 'ada',
      isLive: true,
      viewers: null,
    };
    renderPanel('youtube', { ...idle, isLive: true, platform: 'youtube', roomData });
    const metrics = await screen.findByTestId('youtube-metrics');
    expect(metrics.textContent).toBe('ViewersUnknown');
  });

  it("the demo panel: 'Start Mining' switches the demo stream live, then connects", async () => {
    sessionStorage.setItem('demoUsername', 'ada_demo');
    const client = new QueryClient();
    render(
      <QueryClientProvider client={client}>
        <DemoPanel wallet={wallet} activeTier="Tier 1" live={idle} />
      </QueryClientProvider>,
    );
    expect(screen.getByText('Verified')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Start Mining' }));
    await screen.findByText('Connecting to Demo Live...');
    await vi.waitFor(() => expect(socket.emitted.map((e) => e.event)).toEqual(['join-room', 'start-stream']));
    serverSends('stream-started', {
      startedAt: new Date().toISOString(),
      miningRate: 0.25,
      engagementBoostPercent: 0,
      platform: 'demo',
      currentDailyDuration: 0,
      dailyLimitSeconds: 28_800,
      nextRateIncrease: null,
    });
    expect(screen.queryByText('Connecting to Demo Live...')).toBeNull();
  });
});
