// The dashboard's sections appear in the spec's order (§2 "Dashboard sections"). The sections themselves have
// their own tests; here each is a stand-in that renders its title, so only the dashboard's composition is tested.
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Dashboard, TierBadge } from './Dashboard.tsx';
import { DashboardShell } from './DashboardShell.tsx';

const { section } = vi.hoisted(() => ({
  section: (title: string) => () => <h2>{title}</h2>,
}));

vi.mock('../../mining/index.ts', () => ({
  AccountPanel: section('Account'),
  RewardsPanel: section('Mining Rewards'),
  MiningControls: section('Mining Controls'),
  LiveStats: section('Live Stats'),
  MINING_MESSAGES: { noActiveTier: 'No Active Tier' },
  useChainActions: () => ({}),
  useMiningStats: () => ({ data: undefined }),
  useTokenBalance: () => ({ data: { balance: 0 } }),
}));
vi.mock('../../overlay/index.ts', () => ({ OverlayPanel: section('Stream overlay') }));
vi.mock('../../calculator/index.ts', () => ({ MiningCalculator: section('Mining Calculator') }));
vi.mock('../../streaming/index.ts', () => ({
  SocketErrorBanner: () => null,
  DemoPanel: section('Demo'),
  PlatformPanel: ({ platform }: { platform: string }) => <h3>{platform}</h3>,
}));
vi.mock('../../streamer/index.ts', () => ({
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
vi.mock('../../market/index.ts', () => ({ useMarket: () => ({ data: undefined }), marketPrice: () => 1 }));
vi.mock('../../client-config/index.ts', () => ({
  useClientConfig: () => ({ data: { demoPlatform: false } }),
}));
vi.mock('../../../lib/socket.ts', () => ({
  useSocketState: () => ({ connected: false, isLive: false, minedAmount: 0 }),
  useSocketEvent: () => undefined,
}));

afterEach(cleanup);

describe('Dashboard', () => {
  it("shows its sections in the spec's order: account, rewards, controls, calculator, stream setup", () => {
    render(
      <QueryClientProvider client={new QueryClient()}>
        <Dashboard wallet="wallet" />
      </QueryClientProvider>,
    );
    const titles = screen.getAllByRole('heading').map((h) => h.textContent);
    expect(titles).toEqual([
      'Account',
      'Mining Rewards',
      'Mining Controls',
      'Mining Calculator',
      'Stream Setup',
      'tiktok',
      'twitch',
      'Live Stats',
      'Stream overlay',
    ]);
  });
});

describe('The header tier badge', () => {
  it("shows the active tier, 'No Active Tier' without one, and nothing while the streamer loads", () => {
    const { container, rerender } = render(<TierBadge activeTier={undefined} />);
    expect(container.textContent).toBe('');
    rerender(<TierBadge activeTier={null} />);
    expect(container.textContent).toBe('No Active Tier');
    rerender(<TierBadge activeTier="Tier 3" />);
    expect(container.textContent).toBe('Tier 3');
  });
});

describe('The dashboard header', () => {
  it("shows logo, version, tier badge, then Disconnect and the admin's maintenance toggle", () => {
    const { container } = render(
      <DashboardShell
        logo={<span>LOGO</span>}
        wallet="9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin"
        tierBadge={<TierBadge activeTier={null} />}
        adminControls={<button type="button">Turn Maintenance Mode On</button>}
        onDisconnect={() => undefined}
      />,
    );
    const header = container.querySelector('header')!;
    const text = header.textContent!;
    const order = ['LOGO', 'v1.1.0-Beta', 'No Active Tier', 'Disconnect', 'Turn Maintenance Mode On'].map(
      (part) => text.indexOf(part),
    );
    expect(order.every((i) => i >= 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
  });
});
