import { DEFAULT_TIERS } from '@strm/shared';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MiningCalculator } from './MiningCalculator.tsx';

// The network is the boundary: /api/v1/tiers answers the default table, in camelCase with numeric
// strings (both are accepted), out of order.
const tiersBody = DEFAULT_TIERS.map((t, i) => ({
  id: i + 1,
  name: t.name,
  depositRequirement: String(t.deposit_requirement),
  baseMultiplier: String(t.base_multiplier),
  hourlyBaseRate: String(t.hourly_base_rate),
  maxMultiplier: String(t.max_multiplier),
  hourlyMaxRate: String(t.hourly_max_rate),
  dailyMiningLimitSeconds: t.daily_mining_limit_seconds,
  orderBy: t.order_by,
})).reverse();

let answer: () => Response;
beforeEach(() => {
  answer = () => new Response(JSON.stringify(tiersBody), { status: 200 });
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => answer()),
  );
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function renderCalculator(marketPrice: number | null = null) {
  const client = new QueryClient({ defaultOptions: { queries: { retryDelay: 1 } } });
  return render(
    <QueryClientProvider client={client}>
      <MiningCalculator marketPrice={marketPrice} />
    </QueryClientProvider>,
  );
}

const input = (label: string) => screen.getByLabelText(label) as HTMLInputElement;
const text = (testId: string) => screen.getByTestId(testId).textContent;

describe('Mining Calculator', () => {
  it("shows 'Loading tiers...', then preselects the highest order_by with the defaults", async () => {
    renderCalculator();
    expect(screen.getByText('Loading tiers...')).toBeTruthy();
    const tier9 = await screen.findByRole('button', { name: 'Tier 9' });
    expect(tier9.getAttribute('aria-pressed')).toBe('true');
    expect(input('STRM price (USD)').value).toBe('1');
    expect(input('Hours streamed per day').value).toBe('8');
    expect(input('Days holding the tier').value).toBe('120');
    // Tier 9, 120 days: 8 × 2^12 capped at 64 STRM/h; 8 h a day.
    expect(text('current-rate')).toBe('64 STRM/h');
    expect(text('daily-earnings')).toContain('512 STRM');
    expect(text('daily-earnings')).toContain('≈ $512.00');
    expect(text('monthly-earnings')).toContain('15,360 STRM');
    expect(screen.getByText('1,000,000 STRM')).toBeTruthy();
    expect(screen.getByRole('progressbar').getAttribute('aria-valuenow')).toBe('100');
    expect(screen.getByText('No market price available: using the default price.')).toBeTruthy();
  });

  it('doubles the rate every 10 days from the base, and computes USD from the typed price', async () => {
    renderCalculator(0.004);
    fireEvent.click(await screen.findByRole('button', { name: 'Tier 1' }));
    expect(input('STRM price (USD)').value).toBe('0.004');
    expect(screen.getByText('Current market price: $0.00400000')).toBeTruthy();
    fireEvent.change(input('Days holding the tier'), { target: { value: '9' } });
    expect(text('current-rate')).toBe('0.25 STRM/h');
    fireEvent.change(input('Days holding the tier'), { target: { value: '10' } });
    expect(text('current-rate')).toBe('0.5 STRM/h');
    fireEvent.change(input('Days holding the tier'), { target: { value: '29' } });
    expect(text('current-rate')).toBe('1 STRM/h');
    expect(screen.getByRole('progressbar').getAttribute('aria-valuenow')).toBe('50');
    fireEvent.change(input('STRM price (USD)'), { target: { value: '2' } });
    // 8 h × 1 STRM/h = 8 STRM a day, $16; 240 STRM a month, $480.
    expect(text('daily-earnings')).toContain('≈ $16.00');
    expect(text('monthly-earnings')).toContain('240 STRM');
    expect(text('monthly-earnings')).toContain('≈ $480.00');
    // An invalid price counts as 0.
    fireEvent.change(input('STRM price (USD)'), { target: { value: '' } });
    expect(text('daily-earnings')).toContain('≈ $0.00');
  });

  it('clamps hours to 1..daily limit and days to 0..120 on blur', async () => {
    renderCalculator();
    await screen.findByRole('button', { name: 'Tier 9' });
    const hours = input('Hours streamed per day');
    fireEvent.change(hours, { target: { value: '30' } });
    fireEvent.blur(hours);
    expect(hours.value).toBe('8');
    fireEvent.change(hours, { target: { value: '0' } });
    fireEvent.blur(hours);
    expect(hours.value).toBe('1');
    fireEvent.change(hours, { target: { value: 'abc' } });
    fireEvent.blur(hours);
    expect(hours.value).toBe('1');
    const days = input('Days holding the tier');
    fireEvent.change(days, { target: { value: '500' } });
    fireEvent.blur(days);
    expect(days.value).toBe('120');
    fireEvent.change(days, { target: { value: '-3' } });
    fireEvent.blur(days);
    expect(days.value).toBe('0');
  });

  it('re-clamps hours when the tier changes to one with a shorter daily limit', async () => {
    tiersBody[0]!.dailyMiningLimitSeconds = 4 * 3600; // Tier 9 (the list is reversed)
    try {
      renderCalculator();
      await screen.findByRole('button', { name: 'Tier 9' });
      fireEvent.click(screen.getByRole('button', { name: 'Tier 1' }));
      expect(input('Hours streamed per day').value).toBe('8');
      fireEvent.click(screen.getByRole('button', { name: 'Tier 9' }));
      expect(input('Hours streamed per day').value).toBe('4');
      expect(screen.getByText('1 to 4 hours')).toBeTruthy();
    } finally {
      tiersBody[0]!.dailyMiningLimitSeconds = 28_800;
    }
  });

  it("stops at once with 'Tiers not found' on 404, and says so after 3 failed attempts otherwise", async () => {
    answer = () => new Response(JSON.stringify({ error: 'not_found', message: 'x' }), { status: 404 });
    const first = renderCalculator();
    await screen.findByText('Tiers not found');
    expect(fetch).toHaveBeenCalledTimes(1);
    first.unmount();

    vi.mocked(fetch).mockClear();
    answer = () => new Response('{}', { status: 200 });
    renderCalculator();
    await screen.findByText('Failed to fetch tiers after multiple attempts', undefined, { timeout: 5000 });
    expect(fetch).toHaveBeenCalledTimes(3);
  });
});

describe('within the panel', () => {
  it('shows the tier details of the chosen tier', async () => {
    renderCalculator();
    fireEvent.click(await screen.findByRole('button', { name: 'Tier 4' }));
    const panel = screen.getByTestId('mining-calculator');
    expect(within(panel).getByText('25,000 STRM')).toBeTruthy();
    expect(within(panel).getByText('1.5 STRM/h')).toBeTruthy();
    // Max rate, and the current rate after 120 days.
    expect(within(panel).getAllByText('12 STRM/h')).toHaveLength(2);
  });
});
