// The dashboard's sections in the spec's order (§2 "Dashboard sections"): account (balance, status, wallet,
// time zone), Mining Rewards, Mining Controls, the Mining Calculator, then Stream Setup with the live stats.
import { useCallback, useEffect } from 'react';
import { Alert, Badge, Button, PageSpinner } from '../../../components/ui/index.ts';
import { useSocketEvent, useSocketState } from '../../../lib/socket.ts';
import { AUTH_MESSAGES } from '../../auth/index.ts';
import { MiningCalculator } from '../../calculator/index.ts';
import { useClientConfig } from '../../client-config/index.ts';
import { marketPrice, useMarket } from '../../market/index.ts';
import { OverlayPanel } from '../../overlay/index.ts';
import {
  AccountPanel,
  LiveStats,
  MINING_MESSAGES,
  MiningControls,
  RewardsPanel,
  useChainActions,
  useMiningStats,
  useTokenBalance,
} from '../../mining/index.ts';
import { useStreamer } from '../../streamer/index.ts';
import { DemoPanel, PlatformPanel, SocketErrorBanner } from '../../streaming/index.ts';
import { useQueryClient } from '@tanstack/react-query';

export const DASHBOARD_MESSAGES = {
  loadFailed: 'Your account could not be loaded.',
  retry: 'Try again',
} as const;

/** The header's tier badge: the active tier, 'No Active Tier', or nothing while the streamer is loading. */
export function TierBadge({ activeTier }: { activeTier: string | null | undefined }) {
  if (activeTier === undefined) return null;
  return activeTier ? (
    <Badge tone="success">{activeTier}</Badge>
  ) : (
    <Badge tone="neutral">{MINING_MESSAGES.noActiveTier}</Badge>
  );
}

/** The active tier, for the header. */
export function useActiveTier(wallet: string): string | null | undefined {
  return useStreamer(wallet).data?.activeTier;
}

export function Dashboard({ wallet }: { wallet: string }) {
  const streamer = useStreamer(wallet);
  const stats = useMiningStats(wallet);
  const balance = useTokenBalance(wallet);
  const market = useMarket();
  const config = useClientConfig();
  const live = useSocketState();
  const actions = useChainActions(wallet);
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
        balance={balance.data?.balance ?? 0}
        actions={actions}
      />
      <MiningCalculator marketPrice={price} />
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
        </div>
        <LiveStats wallet={wallet} activeTier={streamer.data.activeTier} live={live} stats={stats.data} />
        <OverlayPanel wallet={wallet} live={live} stats={stats.data} />
      </section>
    </>
  );
}
