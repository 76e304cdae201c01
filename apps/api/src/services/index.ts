// The composition root: every service built once, in dependency order, each from what is built before it
// (no forward reference), then started and stopped in that order. Routes and socket handlers receive the
// service they use from here (`services.claims`, `services.tierActions`, `services.platforms.twitch`).
// What the sockets do for the services (an engine event to a wallet's sockets, an overlay told its link
// ended) comes in as `outputs`, built from Socket.IO by the app before the services (socket/).
import type { ConfigAccount } from '@strm/mining-client';
import { configPda, miningProgram, readConfig } from '@strm/mining-client';
import { type MaintenanceStatus, TOKEN_DECIMALS } from '@strm/shared';
import { ClusterMembership } from '../cluster/membership.ts';
import type { AppDeps } from '../deps.ts';
import { type BackgroundLoop, backgroundLoop } from '../observability/background.ts';
import type { Metrics } from '../observability/metrics.ts';
import { createPlatforms, type Platforms } from '../platforms/index.ts';
import { OAuthCodeAccounts } from '../platforms/oauth-code-accounts.ts';
import { PlatformAccounts } from '../platforms/platform-accounts.ts';
import { AccessControl } from './access.ts';
import { chainStreamerRecords, type StreamerRecords } from '../rpc/streamer-records.ts';
import { cachedMaintenance, getMaintenance } from './maintenance.ts';
import { MarketService } from './market.ts';
import { type EngineCounters, engineCounters } from './mining/counters.ts';
import { type EngineEvents, MiningEngine } from './mining/engine.ts';
import { OverlayService } from './overlay/index.ts';
import type { OverlayPublisher, WalletEventListener } from './overlay/feed.ts';
import { ClaimService } from './rewards/claims.ts';
import { decimalsRefusal, treasuryOf } from './rewards/treasury.ts';
import { RESTORED_MAINTENANCE, recordUnrecordedPayouts } from './rewards/unrecorded-payouts.ts';
import { StreamerRepository } from '../db/streamer-repository.ts';
import { TierActions } from './tiers/actions.ts';
import { TierCatalog } from './tiers/catalog.ts';

/** What the services send out through the sockets (socket/). */
export interface ServiceOutputs {
  /** The engine's outcomes as events to a wallet's sockets, and requests to other instances. */
  engineEvents: EngineEvents;
  /** Every event sent to a wallet is also handed to a listener added here (the overlay feed). */
  hearWalletEvents(listener: WalletEventListener): void;
  /** Where the overlay feed publishes, and how an ended link's overlays are told. */
  overlays: { publisher: OverlayPublisher; linkEnded(wallet: string, tokenHash: string): void };
}

export interface Services {
  /** Who may use the product (beta access or admin). */
  access: AccessControl;
  /** The nine tiers: deposits from the chain's config, the rest from the database. */
  tiers: TierCatalog;
  /** The streamers' records on chain (their active tier), watched; and the config account's watch. */
  records: StreamerRecords;
  /** Streamers and their platform accounts. */
  streamers: StreamerRepository;
  platforms: Platforms;
  /** Twitch and TikTok accounts: usernames, bio codes, Twitch's token check, statuses of all four. */
  platformAccounts: PlatformAccounts;
  /** YouTube and Kick accounts, verified by an authorization code. */
  oauthAccounts: OAuthCodeAccounts;
  /** The token's market figures (the DEX pair API), cached. */
  market: MarketService;
  /** Maintenance mode as GET /maintenance answers it (read from the database at most once a second). */
  maintenance: () => Promise<MaintenanceStatus>;
  /** The mining engine: live sessions, their accrual, checkpoints and ends. */
  engine: MiningEngine;
  /** The engine's database writes, counted for the benchmark. */
  counters: EngineCounters;
  /** collect-rewards: claims paid from the treasury, reconciled after a crash. */
  claims: ClaimService;
  /** activate-tier / deactivate-tier, checked against the program's records. */
  tierActions: TierActions;
  /** Overlay links and public mining cards, and the feed of what overlays show. */
  overlays: OverlayService;
  /**
   * Loads the tiers (reloaded when the chain's config changes, and every `tiersRefreshMs` for the
   * database's side), joins the cluster, recovers sessions and claims left by a crash, starts ticking and
   * reconciling.
   */
  start(): Promise<void>;
  /** Maintenance switched: on ends every live session now and refuses new ones until it is off. */
  onMaintenance(on: boolean): Promise<void>;
  stop(): Promise<void>;
}

export function createServices(deps: AppDeps & { metrics: Metrics }, outputs: ServiceOutputs): Services {
  const { config, prisma, clock, logger, metrics } = deps;
  const access = new AccessControl({ config, prisma, logger });
  const program = miningProgram(deps.rpc.connection);
  const records: StreamerRecords =
    deps.streamerRecords ??
    chainStreamerRecords(program, { wsUrl: deps.rpc.wsUrl, logger, now: () => clock.now().getTime() });
  /** The chain config as the tier catalog last read it (undefined: not read yet, or unreadable then). */
  let configRead: ConfigAccount | null | undefined;
  const tiers = new TierCatalog(
    prisma,
    async () => {
      const onChain = await readConfig(program);
      configRead = onChain;
      return onChain ? new Map(onChain.tiers.map((t) => [t.name, t.deposit])) : null;
    },
    logger,
  );
  const streamers = new StreamerRepository(prisma);
  const membership = new ClusterMembership(
    prisma,
    logger,
    config.mining.instanceLeaseMs,
    deps.databaseUrl,
    metrics,
  );
  const platforms = createPlatforms({ ...deps, instanceId: membership.id });
  const counters = engineCounters();
  const engine = new MiningEngine({
    lease: membership,
    metrics,
    counters,
    streamers,
    instanceId: membership.id,
    prisma,
    clock,
    logger,
    tiers,
    records,
    platforms: platforms.adapters,
    events: outputs.engineEvents,
    options: config.mining,
  });
  const claims = new ClaimService({
    prisma,
    connection: deps.rpc.connection,
    clock,
    logger,
    treasury: () => treasuryOf(deps, program),
    isLive: (wallet) => engine.liveAnywhere(wallet),
    hasAccess: (wallet) => access.allowedNow(wallet),
    chainAvailable: () => deps.rpc.available(),
  });
  const recordPayoutsFromChain = async () => {
    // On a restored database only, before the operator turns maintenance off (docs/operations.md#backups).
    const { is_maintenance, message } = await getMaintenance(prisma);
    if (!is_maintenance || message !== RESTORED_MAINTENANCE) return;
    const treasury = await treasuryOf(deps, program);
    if (treasury)
      await recordUnrecordedPayouts({ prisma, connection: deps.rpc.connection, treasury, logger });
  };
  const isLive = (wallet: string) => engine.liveAnywhere(wallet);
  const platformAccounts = new PlatformAccounts({
    prisma,
    streamers,
    clock,
    logger,
    twitch: platforms.twitch,
    tiktok: platforms.tiktok,
    isLive,
    codeTtlSeconds: config.platforms.tiktok.codeTtlSeconds,
  });
  const oauthAccounts = new OAuthCodeAccounts({
    prisma,
    streamers,
    clock,
    logger,
    youtube: platforms.youtube,
    kick: platforms.kick,
    accounts: platformAccounts,
    isLive,
    youtubeSecret: config.platforms.youtube.clientSecret,
  });
  const market = new MarketService({
    pairApiUrl: config.market.pairApiUrl,
    refreshMs: config.market.refreshMs,
    clock,
    logger,
  });
  const maintenance = cachedMaintenance(prisma);
  const tierActions = new TierActions({
    prisma,
    streamers,
    program,
    records,
    logger,
    endLiveSession: (wallet) => engine.stopSession(wallet, 'tier-deactivated'),
    chainAvailable: () => deps.rpc.available(),
  });
  const overlays = new OverlayService({
    prisma,
    clock,
    webOrigin: config.webOrigins[0]!,
    linkTtlMs: config.overlayLinkTtlMs,
    stats: { prisma, streamers, clock, tiers, engine },
    publisher: outputs.overlays.publisher,
    linkEnded: outputs.overlays.linkEnded,
    updateIntervalMs: config.mining.updateIntervalMs,
    logger,
    hasAccess: (wallet) => access.allowedNow(wallet),
    cardReads: (source) => metrics.publicCardReads.inc({ source }),
  });
  outputs.hearWalletEvents(overlays.feed.listener);
  // A wallet whose access changed is served no card from memory (a revoked wallet's card is gone at once).
  access.onChange((wallet) => overlays.forgetCards(wallet));

  let unwatchConfig: (() => void) | undefined;
  let tiersLoop: BackgroundLoop | undefined;
  let reconcileLoop: BackgroundLoop | undefined;
  return {
    access,
    tiers,
    records,
    streamers,
    platforms,
    platformAccounts,
    oauthAccounts,
    market,
    maintenance,
    engine,
    counters,
    claims,
    tierActions,
    overlays,
    async start() {
      await tiers.refresh();
      // Amounts are base units of TOKEN_DECIMALS (6) everywhere they are stored, summed and paid, and
      // `initialize` accepts any mint: a config whose mint has other decimals (read by the refresh just done)
      // refuses the start, naming both. One the chain could not give now is checked again at payout
      // (treasuryOf).
      if (configRead && configRead.tokenDecimals !== TOKEN_DECIMALS) {
        throw new Error(decimalsRefusal(configRead.tokenDecimals));
      }
      // With the database or the chain away the table in memory keeps answering; reloads back off.
      tiersLoop = backgroundLoop({
        name: 'tier-refresh',
        intervalMs: config.mining.tiersRefreshMs,
        run: () => tiers.refresh(),
        logger,
        metrics,
      });
      // Over the chain watch's own PubSub connection (no web3.js subscription in the server).
      unwatchConfig = records.watchAccount(configPda(program.programId), () => tiersLoop?.trigger());
      engine.setMaintenance((await getMaintenance(prisma)).is_maintenance);
      // Before any session is resumed: a streamer live before a restart is still live after it.
      await platforms.demo?.load();
      await membership.join();
      // The chain watch subscribes now rather than at the first start (which waits for it, bounded).
      records
        .ready(10_000)
        .then((ok) => ok || logger.warn('chain watch not subscribed yet; retrying with backoff'))
        .catch((err: unknown) => logger.warn({ err }, 'chain watch failed to start'));
      await engine.run(config.mining.tickMs, config.mining.sweepMs);
      // Payouts the chain has and the database does not (a restored backup's), before claims are settled.
      await recordPayoutsFromChain().catch((err: unknown) =>
        logger.warn({ err }, 'could not look on chain for payouts the database does not record'),
      );
      await claims.reconcile().catch((err: unknown) => logger.warn({ err }, 'claim reconciliation failed'));
      reconcileLoop = backgroundLoop({
        name: 'claim-reconciler',
        intervalMs: config.mining.claimsReconcileMs,
        run: () => claims.reconcile(),
        logger,
        metrics,
      });
    },
    async onMaintenance(on) {
      engine.setMaintenance(on);
      if (on) await engine.endAll('maintenance');
    },
    async stop() {
      await reconcileLoop?.stop();
      await tiersLoop?.stop();
      unwatchConfig?.();
      await engine.stop();
      records.close();
      platforms.stop();
      await membership.leave();
    },
  };
}
