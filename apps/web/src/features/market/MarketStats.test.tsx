import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeApi } from '../../testing/fake-api.ts';
import { MarketStats } from './MarketStats.tsx';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function renderWith(body: unknown, status = 200) {
  fakeApi({ 'GET /market': () => ({ status, body }) });
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <MarketStats />
    </QueryClientProvider>,
  );
}

const market = {
  price: 1234.5,
  marketCap: 5e6,
  volume24h: 12_345.678,
  transactions: { buys: 1500, sells: 7 },
};

describe('Market Statistics', () => {
  it('shows price, market cap, 24h volume, buys and sells', async () => {
    renderWith({ configured: true, market, error: null, updatedAt: '2026-01-01T00:00:00.000Z' });
    expect(await screen.findByText('$1,234.50')).toBeTruthy();
    expect(screen.getByText('$5,000,000.00')).toBeTruthy();
    expect(screen.getByText('$12,345.68')).toBeTruthy();
    expect(screen.getByText('1,500')).toBeTruthy();
    expect(screen.getByText('7')).toBeTruthy();
  });

  it('shows a price under 0.01 with 8 decimals', async () => {
    renderWith({ configured: true, market: { ...market, price: 0.000123 }, error: null, updatedAt: null });
    expect(await screen.findByText('$0.00012300')).toBeTruthy();
  });

  it("shows the server's error in a red banner", async () => {
    renderWith({ configured: true, market: null, error: 'Invalid response format', updatedAt: null });
    expect((await screen.findByRole('alert')).textContent).toBe('Invalid response format');
  });

  it('says when no pair is configured', async () => {
    renderWith({ configured: false, market: null, error: null, updatedAt: null });
    expect(
      await screen.findByText('Market data is not available: no DEX pair is configured for this deployment.'),
    ).toBeTruthy();
  });

  it("says 'Failed to fetch market data' when the API cannot be reached", async () => {
    renderWith({ error: 'internal', message: 'boom' }, 500);
    expect((await screen.findByRole('alert')).textContent).toBe('Failed to fetch market data');
  });
});
