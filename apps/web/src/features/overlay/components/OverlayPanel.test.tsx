import type { LiveState, OverlayResponse } from '@strm/shared';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { initialSocketState } from '../../../lib/socket.ts';
import { type FakeRoutes, signedInWithFakeApi } from '../../../testing/fake-api.ts';
import { OverlayPanel } from './OverlayPanel.tsx';

const wallet = '9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin';
const live: LiveState = { ...initialSocketState, connected: true };
const saved: OverlayResponse = {
  overlay: { active: false, createdAt: null, expiresAt: null, theme: 'corner-badge', showBalance: false },
  card: { enabled: false, slug: null, url: null },
};

let routes: FakeRoutes;
const calls = signedInWithFakeApi(() => routes);

async function renderPanel() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <OverlayPanel wallet={wallet} live={live} stats={undefined} />
    </QueryClientProvider>,
  );
  const radio = (name: string) => screen.getByRole('radio', { name }) as HTMLInputElement;
  await waitFor(() => expect(radio('Corner badge').disabled).toBe(false));
  return radio;
}

const refused = () => ({ status: 503, body: { error: 'unavailable', message: 'Try again in a moment' } });

describe('the overlay panel’s choices', () => {
  it('show a theme as picked from the click on, and keep it once the server has it', async () => {
    routes = {
      'GET /streamer/overlay': () => ({ body: saved }),
      'PUT /streamer/overlay/settings': (call) => ({
        body: { ...saved.overlay, ...(call.body as object) },
      }),
    };
    const radio = await renderPanel();
    fireEvent.click(radio('Lower third'));
    // In the click's own event: nothing of the request has come back yet.
    expect(radio('Lower third').checked).toBe(true);
    expect(radio('Corner badge').checked).toBe(false);
    await waitFor(() =>
      expect(calls.find((c) => c.method === 'PUT')?.body).toEqual({ theme: 'lower-third' }),
    );
    await screen.findByLabelText('Preview: Lower third');
    expect(radio('Lower third').checked).toBe(true);
  });

  it('go back to what the server kept when it refuses, with its message', async () => {
    routes = {
      'GET /streamer/overlay': () => ({ body: saved }),
      'PUT /streamer/overlay/settings': refused,
      'PUT /streamer/public-card': refused,
    };
    const radio = await renderPanel();
    fireEvent.click(radio('Compact counter'));
    expect(radio('Compact counter').checked).toBe(true);
    await screen.findByText('Try again in a moment');
    await waitFor(() => expect(radio('Corner badge').checked).toBe(true));
    expect(radio('Compact counter').checked).toBe(false);

    const card = screen.getByRole('checkbox', { name: 'Make my mining card public' }) as HTMLInputElement;
    fireEvent.click(card);
    expect(card.checked).toBe(true);
    await waitFor(() => expect(calls.filter((c) => c.path === '/streamer/public-card')).toHaveLength(1));
    await waitFor(() => expect(card.checked).toBe(false));
  });
});
