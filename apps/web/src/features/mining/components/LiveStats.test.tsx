import type { MiningStats } from '@strm/shared';
import { act, cleanup, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { initialSocketState, type SocketState } from '../../../lib/socket.ts';
import { LiveStats } from './LiveStats.tsx';

const wallet = '9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin';
const DAY = 86_400_000;

// The socket module is the boundary: its events are delivered by hand, what is emitted is recorded.
const socket = vi.hoisted(() => ({
  handlers: new Map<string, (payload: unknown) => void>(),
  emitted: [] as Array<[string, unknown]>,
}));
vi.mock('../../../lib/socket.ts', async (original) => ({
  ...(await original<typeof import('../../../lib/socket.ts')>()),
  useSocketEvent: (event: string, handler: (payload: unknown) => void) => {
    socket.handlers.set(event, handler);
  },
  emitSocket: (event: string, payload: unknown) => {
    socket.emitted.push([event, payload]);
    return true;
  },
}));

const stats: MiningStats = {
  wallet,
  tier: 'Tier 1',
  isLive: true,
  miningRate: 0.25,
  nextRateIncrease: null,
  timezone: 'UTC',
  currentDailyDuration: 0,
  dailyLimitSeconds: 28_800,
  remainingDailySeconds: 28_800,
  dailyStatus: 'ok',
  dailyMessage: null,
  pendingReward: 0,
  totalMined: 0,
  totalCollected: 0,
  totalSeconds: 0,
  sessionCount: 0,
  recentSessions: [],
};

function live(overrides: Partial<SocketState>): SocketState {
  return {
    ...initialSocketState,
    connected: true,
    isLive: true,
    platform: 'demo',
    miningRate: 0.25,
    nextRateIncrease: new Date(Date.now() + 5 * DAY).toISOString(),
    ...overrides,
  };
}

beforeEach(() => {
  socket.handlers.clear();
  socket.emitted.length = 0;
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

const text = (testId: string) => screen.getByTestId(testId).textContent;

describe('Live Stats', () => {
  it("shows daily earnings as the tier's daily limit hours x the current rate, and monthly as 30 x daily", () => {
    const { rerender } = render(
      <LiveStats
        wallet={wallet}
        activeTier="Tier 1"
        live={{ ...initialSocketState, connected: true }}
        stats={stats}
      />,
    );
    expect(text('live-daily-earnings')).toBe('2 STRM');
    expect(text('live-monthly-earnings')).toBe('60 STRM');
    rerender(
      <LiveStats wallet={wallet} activeTier="Tier 1" live={live({ miningRate: 0.5 })} stats={stats} />,
    );
    expect(text('live-daily-earnings')).toBe('4 STRM');
    expect(text('live-monthly-earnings')).toBe('120 STRM');
  });

  it('shows duration as Nh Nm Ns, the mined amount, the rate and the 10-day bar to the next increase', () => {
    render(
      <LiveStats
        wallet={wallet}
        activeTier="Tier 1"
        live={live({ streamDuration: 3_725, minedAmount: 0.258681, currentDailyDuration: 3_725 })}
        stats={stats}
      />,
    );
    expect(text('stream-duration')).toBe('1h 2m 5s');
    expect(text('mined-amount')).toBe('0.258681 STRM');
    expect(text('mining-rate')).toBe('0.25 STRM/h');
    expect(text('rate-countdown')).toMatch(/^(119h 59m 5\ds|120h 0m 0s)$/);
    const bar = screen.getByRole('progressbar', { name: 'Progress to the next rate increase (10 days)' });
    expect(bar.getAttribute('aria-valuenow')).toBe('50');
    expect(text('remaining-daily')).toBe('6h 57m 55s');
    expect(screen.getByTestId('remaining-daily').className).not.toContain('amber');
  });

  it('turns the remaining daily time amber under 1800 s, and says when the limit is reached', () => {
    const { rerender } = render(
      <LiveStats
        wallet={wallet}
        activeTier="Tier 1"
        live={live({ currentDailyDuration: 28_800 - 1_800 })}
        stats={stats}
      />,
    );
    expect(screen.getByTestId('remaining-daily').className).not.toContain('amber');
    expect(screen.queryByText('Approaching daily limit')).toBeNull();
    rerender(
      <LiveStats
        wallet={wallet}
        activeTier="Tier 1"
        live={live({ currentDailyDuration: 28_800 - 1_799 })}
        stats={stats}
      />,
    );
    expect(screen.getByTestId('remaining-daily').className).toContain('amber');
    expect(screen.getByText('Approaching daily limit')).toBeTruthy();
    rerender(
      <LiveStats
        wallet={wallet}
        activeTier="Tier 1"
        live={live({ currentDailyDuration: 28_800 })}
        stats={stats}
      />,
    );
    expect(text('remaining-daily')).toBe('0h 0m 0s');
    expect(screen.getByText('Daily limit reached. Mining will resume tomorrow')).toBeTruthy();
  });

  it("asks for the increase once when the countdown reaches zero, then shows 'Rate increased!' for 3 s", () => {
    // On fake timers: the 3 s are counted on their clock, from the event.
    vi.useFakeTimers();
    const due = live({ nextRateIncrease: new Date(Date.now() - 1_000).toISOString() });
    const { rerender } = render(<LiveStats wallet={wallet} activeTier="Tier 1" live={due} stats={stats} />);
    rerender(<LiveStats wallet={wallet} activeTier="Tier 1" live={{ ...due }} stats={stats} />);
    expect(socket.emitted).toEqual([['increase-rate', { platform: 'demo', wallet }]]);

    act(() => socket.handlers.get('rate-increased')?.({ status: 'success', miningRate: 0.5 }));
    expect(screen.getByText('Rate increased!')).toBeTruthy();
    act(() => vi.advanceTimersByTime(2_999));
    expect(screen.getByText('Rate increased!')).toBeTruthy();
    act(() => vi.advanceTimersByTime(1));
    expect(screen.queryByText('Rate increased!')).toBeNull();
  });

  it("without an active tier says so beside an empty bar, never 'Max rate reached' beside a full one", () => {
    const noTier = { ...stats, tier: null, isLive: false, miningRate: 0 };
    const idle = { ...initialSocketState, connected: true };
    const { rerender } = render(<LiveStats wallet={wallet} activeTier={null} live={idle} stats={noTier} />);
    const bar = () =>
      screen.getByRole('progressbar', { name: 'Progress to the next rate increase (10 days)' });
    expect(text('rate-countdown')).toBe('No Active Tier');
    expect(screen.queryByText('Max rate reached')).toBeNull();
    expect(bar().getAttribute('aria-valuenow')).toBe('0');
    // With a tier at its max rate (no next increase), the bar is full.
    rerender(<LiveStats wallet={wallet} activeTier="Tier 1" live={idle} stats={stats} />);
    expect(text('rate-countdown')).toBe('Max rate reached');
    expect(bar().getAttribute('aria-valuenow')).toBe('100');
  });

  it('with a tier but before its stats arrive, claims neither the max rate nor a day of mining used', () => {
    const idle = { ...initialSocketState, connected: true };
    const { rerender } = render(
      <LiveStats wallet={wallet} activeTier="Tier 1" live={idle} stats={undefined} />,
    );
    expect(screen.queryByText('Max rate reached')).toBeNull();
    expect(screen.queryByRole('progressbar')).toBeNull();
    expect(screen.queryByTestId('remaining-daily')).toBeNull();
    expect(screen.getByText('Loading')).toBeTruthy();
    // Once they arrive (this tier's next increase in 5 days), they show.
    const due = new Date(Date.now() + 5 * DAY).toISOString();
    rerender(
      <LiveStats
        wallet={wallet}
        activeTier="Tier 1"
        live={idle}
        stats={{ ...stats, isLive: false, nextRateIncrease: due }}
      />,
    );
    expect(text('rate-countdown')).toMatch(/^(119h 59m 5\ds|120h 0m 0s)$/);
    expect(text('remaining-daily')).toBe('8h 0m 0s');
  });
});
