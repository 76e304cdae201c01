// The dashboard (route /, signed in with beta access): the header (logo, version, tier badge, wallet,
// Disconnect, the admin's maintenance toggle and console link), then the sections in the order of
// docs/product.md#dashboard: account (balance, status, wallet, time zone), Mining Rewards, Mining Controls,
// the Mining Calculator, then Stream Setup with the live stats. The sections below Mining Controls render once
// the controls have been painted: the tier buttons are usable sooner, and on a phone those
// sections are below the fold.
import { OAUTH_CODE_PLATFORMS } from '@strm/shared';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect } from 'react';
import { Link } from 'react-router';
import { DashboardShell } from '../../components/layouts/DashboardShell.tsx';
import { Alert, Button, PageSpinner } from '../../components/ui/index.ts';
import { useAfterPaint } from '../../lib/after-paint.ts';
import { useSocketEvent, useSocketState } from '../../lib/socket.ts';
import { AUTH_MESSAGES, Logo } from '../../features/auth/index.ts';
import { MiningCalculator } from '../../features/calculator/index.ts';
import { useClientConfig } from '../../features/client-config/index.ts';
import { MaintenanceToggle } from '../../features/maintenance/index.ts';
import { marketPrice, useMarket } from '../../features/market/index.ts';
import { OverlayPanel } from '../../features/overlay/index.ts';
import {
  AccountPanel,
  LiveStats,
  MiningControls,
  RewardsPanel,
  TierBadge,
  useWalletTransactions,
  useMiningStats,
} from '../../features/mining/index.ts';
import { useStreamer, useTokenBalance } from '../../features/streamer/index.ts';
import {
  DemoPanel,
  OAuthPlatformPanel,
  PlatformPanel,
  SocketErrorBanner,
} from '../../features/streaming/index.ts';

export const DASHBOARD_MESSAGES = {
  loadFailed: 'Your account could not be loaded.',
  retry: 'Try again',
  adminConsole: 'Admin console',
} as const;

export function DashboardRoute({
  wallet,
  isAdmin,
  inMaintenance,
  onDisconnect,
}: {
  wallet: string;
  isAdmin: boolean;
  inMaintenance: boolean;
  onDisconnect(): void;
}) {
  const activeTier = useStreamer(wallet).data?.activeTier;
  return (
    <DashboardShell
      logo={<Logo />}
      wallet={wallet}
      onDisconnect={onDisconnect}
      adminControls={
        isAdmin ? (
          <>
            <MaintenanceToggle on={!inMaintenance} />
            <Link
              to="/admin"
              className="rounded-lg px-3 py-1.5 text-sm font-medium text-violet-300 hover:bg-slate-800 focus-visible:outline-2 focus-visible:outline-violet-400"
            >
              {DASHBOARD_MESSAGES.adminConsole}
            </Link>
          </>
        ) : null
      }
      tierBadge={<TierBadge activeTier={activeTier} />}
    >
      <Dashboard wallet={wallet} />
    </DashboardShell>
  );
}

export function Dashboard({ wallet }: { wallet: string }) {
  const streamer = useStreamer(wallet);
  const stats = useMiningStats(wallet);
  const balance = useTokenBalance(wallet);
  const market = useMarket();
  const config = useClientConfig();
  const live = useSocketState();
  const actions = useWalletTransactions(wallet);
  const client = useQueryClient();

  // Server state that a socket event changes is read again from the API.
  const refetch = useCallback(() => {
    void client.invalidateQueries({ queryKey: ['streamer', wallet] });
    void client.invalidateQueries({ queryKey: ['mining-stats', wallet] });
  }, [client, wallet]);
  useSocketEvent('stream-stopped', refetch);
  useSocketEvent('stream-started', refetch);
  useSocketEvent('rewards-collected', refetch);
  useEffect(() => {
    if (live.connected) refetch();
  }, [live.connected, refetch]);
  // Once the tier buttons can be enabled: the account and the balance are read.
  const below = useAfterPaint(streamer.data !== undefined && !balance.isPending);

  if (streamer.isError) {
    return (
      <Alert tone="error" title={DASHBOARD_MESSAGES.loadFailed}>
        <Button size="sm" variant="secondary" className="mt-2" onClick={() => void streamer.refetch()}>
          {DASHBOARD_MESSAGES.retry}
        </Button>
      </Alert>
    );
  }
  if (!streamer.data) return <PageSpinner label={AUTH_MESSAGES.loading} />;
  const price = marketPrice(market.data);
  const isLive = live.isLive;
  const pending = streamer.data.pendingReward;
  return (
    <>
      <AccountPanel wallet={wallet} streamer={streamer.data} isLive={isLive} price={price} />
      <RewardsPanel pending={pending} isLive={isLive} sessionMined={live.minedAmount} actions={actions} />
      <MiningControls
        activeTier={streamer.data.activeTier}
        isLive={isLive}
        balance={balance.data?.balance}
        actions={actions}
      />
      {below && <MiningCalculator marketPrice={price} />}
      {below && (
        <section aria-labelledby="stream-setup-title" className="flex flex-col gap-4">
          <h2 id="stream-setup-title" className="text-xl font-semibold text-white">
            Stream Setup
          </h2>
          <SocketErrorBanner live={live} />
          <div className="grid gap-6 lg:grid-cols-2">
            {config.data?.demoPlatform && (
              <DemoPanel wallet={wallet} activeTier={streamer.data.activeTier} live={live} />
            )}
            <PlatformPanel
              platform="tiktok"
              wallet={wallet}
              activeTier={streamer.data.activeTier}
              live={live}
            />
            <PlatformPanel
              platform="twitch"
              wallet={wallet}
              activeTier={streamer.data.activeTier}
              live={live}
            />
            {OAUTH_CODE_PLATFORMS.map((platform) => (
              <OAuthPlatformPanel
                key={platform}
                platform={platform}
                wallet={wallet}
                activeTier={streamer.data.activeTier}
                live={live}
                configured={config.data?.oauthPlatforms?.[platform] ?? false}
              />
            ))}
          </div>
          <LiveStats wallet={wallet} activeTier={streamer.data.activeTier} live={live} stats={stats.data} />
          <OverlayPanel wallet={wallet} live={live} stats={stats.data} />
        </section>
      )}
    </>
  );
}
