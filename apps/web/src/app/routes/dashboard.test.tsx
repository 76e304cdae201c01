// The dashboard's sections appear in the order of docs/product.md#dashboard. The sections themselves have
// their own tests; here each is a stand-in that renders its title, so only the dashboard's composition is tested.
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Dashboard } from './dashboard.tsx';

const { section } = vi.hoisted(() => ({
  section: (title: string) => () => <h2>{title}</h2>,
}));

vi.mock('../../features/mining/index.ts', () => ({
  AccountPanel: section('Account'),
  RewardsPanel: section('Mining Rewards'),
  MiningControls: section('Mining Controls'),
  LiveStats: section('Live Stats'),
  MINING_MESSAGES: { noActiveTier: 'No Active Tier' },
  useWalletTransactions: () => ({}),
  useMiningStats: () => ({ data: undefined }),
}));
vi.mock('../../features/overlay/index.ts', () => ({ OverlayPanel: section('Stream overlay') }));
vi.mock('../../features/calculator/index.ts', () => ({ MiningCalculator: section('Mining Calculator') }));
vi.mock('../../features/streaming/index.ts', () => ({
  SocketErrorBanner: () => null,
  DemoPanel: section('Demo'),
  PlatformPanel: ({ platform }: { platform: string }) => <h3>{platform}</h3>,
  OAuthPlatformPanel: ({ platform }: { platform: string }) => <h3>{platform}</h3>,
}));
vi.mock('../../features/streamer/index.ts', () => ({
  useTokenBalance: () => ({ data: { balance: 0 } }),
  useStreamer: () => ({
    isError: false,
    data: {
      activeTier: 'Tier 1',
      pendingReward: 0,
      isAdmin: false,
      timezone: 'UTC',
      timezoneChangedTimes: 0,
    },
  }),
}));
vi.mock('../../features/market/index.ts', () => ({
  useMarket: () => ({ data: undefined }),
  marketPrice: () => 1,
}));
vi.mock('../../features/client-config/index.ts', () => ({
  useClientConfig: () => ({ data: { demoPlatform: false } }),
}));
vi.mock('../../lib/socket.ts', () => ({
  useSocketState: () => ({ connected: false, isLive: false, minedAmount: 0 }),
  useSocketEvent: () => undefined,
}));

afterEach(cleanup);

describe('Dashboard', () => {
  it('shows its sections in order: account, rewards, controls, calculator, stream setup', async () => {
    render(
      <QueryClientProvider client={new QueryClient()}>
        <Dashboard wallet="wallet" />
      </QueryClientProvider>,
    );
    // The sections below Mining Controls come after the controls are painted (so the tier buttons
    // are usable sooner).
    expect(screen.getAllByRole('heading').map((h) => h.textContent)).toEqual([
      'Account',
      'Mining Rewards',
      'Mining Controls',
    ]);
    await screen.findByRole('heading', { name: 'Stream Setup' }, { timeout: 10_000 });
    const titles = screen.getAllByRole('heading').map((h) => h.textContent);
    expect(titles).toEqual([
      'Account',
      'Mining Rewards',
      'Mining Controls',
      'Mining Calculator',
      'Stream Setup',
      'tiktok',
      'twitch',
      'youtube',
      'kick',
      'Live Stats',
      'Stream overlay',
    ]);
  });
});
