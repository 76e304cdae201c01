// Builds the mining side of the app from its dependencies: the tier catalog, the engine, collect-rewards
// and tier actions, over the chain, the database and the platform adapters.
import { readFileSync } from 'node:fs';
import { getAssociatedTokenAddressSync } from '@solana/spl-token';
import { Keypair, PublicKey } from '@solana/web3.js';
import {
  type ConfigAccount,
  configPda,
  type MiningProgram,
  miningProgram,
  readConfig,
} from '@strm/mining-client';
import { PRODUCT, type StreamPlatform, TOKEN_DECIMALS } from '@strm/shared';
import { ClusterMembership } from '../../cluster/membership.ts';
import type { AppDeps } from '../../deps.ts';
import type { AccessControl } from '../access.ts';
import { getMaintenance } from '../maintenance.ts';
import { type BackgroundLoop, backgroundLoop } from '../../observability/background.ts';
import type { PlatformAdapter } from '../../platforms/adapter.ts';
import { DemoPlatform } from '../../platforms/demo.ts';
import { TikTokPlatform } from '../../platforms/tiktok.ts';
import { TwitchPlatform } from '../../platforms/twitch.ts';
import { KickPlatform } from '../../platforms/kick.ts';
import { youtubeRefreshTokens } from '../../platforms/oauth-accounts.ts';
import { YouTubePlatform } from '../../platforms/youtube.ts';
import { chainStreamerRecords, type StreamerRecords } from '../chain/streamer-records.ts';
import { ClaimService } from '../rewards/claims.ts';
import type { Treasury } from '../rewards/treasury.ts';
import { TierActions } from '../tier-actions.ts';
import { StreamerStore } from '../streamer/store.ts';
import { TierCatalog } from '../tiers.ts';
import { type EngineCounters, engineCounters } from './counters.ts';
import { type EngineEvents, MiningEngine } from './engine.ts';

export interface Mining {
  tiers: TierCatalog;
  engine: MiningEngine;
  /** Streamers and their platform accounts (reads and writes of the handlers). */
  streamers: StreamerStore;
  /** The engine's database writes, counted for the benchmark. */
  counters: EngineCounters;
  claims: ClaimService;
  tierActions: TierActions;
  demo: DemoPlatform | undefined;
  /** The real platforms (verification and live detection); base URLs from the configuration. */
  twitch: TwitchPlatform;
  tiktok: TikTokPlatform;
  youtube: YouTubePlatform;
  kick: KickPlatform;
  /**
   * Recovers sessions and claims left by a crash, loads the tiers (reloaded when the chain's config
   * changes and every `tiersRefreshMs` for the database's side), starts ticking and reconciling.
   */
  start(): Promise<void>;
  /** Maintenance switched: on ends every live session now and refuses new ones until it is off. */
  onMaintenance(on: boolean): Promise<void>;
  stop(): Promise<void>;
}

/** A keypair file in the Solana CLI's format (a JSON array of the 64 secret-key bytes). */
function readKeypair(path: string): Keypair {
  return Keypair.fromSecretKey(Uint8Array.from(JSON.parse(readFileSync(path, 'utf8'))));
}

/** The local chain's treasury (chain.json), or TREASURY_KEYPAIR_PATH's token account of the config's mint. */
async function treasuryOf(deps: AppDeps, program: MiningProgram): Promise<Treasury | null> {
  if (deps.localChainInfo) {
    const mint = new PublicKey(deps.localChainInfo.mint);
    return {
      owner: readKeypair(deps.localChainInfo.keypairs.treasuryOwner),
      mint,
      tokenAccount: new PublicKey(deps.localChainInfo.treasuryTokenAccount),
      decimals: deps.localChainInfo.decimals,
    };
  }
  if (!deps.config.treasuryKeypairPath) return null;
  const owner = readKeypair(deps.config.treasuryKeypairPath);
  const onChain = await readConfig(program);
  if (!onChain) return null;
  if (onChain.tokenDecimals !== TOKEN_DECIMALS) throw new Error(decimalsRefusal(onChain.tokenDecimals));
  return {
    owner,
    mint: onChain.tokenMint,
    tokenAccount: getAssociatedTokenAddressSync(onChain.tokenMint, owner.publicKey),
    decimals: onChain.tokenDecimals,
  };
}

/** The mint's decimals differ from what every amount here assumes (TOKEN_DECIMALS). */
export function decimalsRefusal(onChain: number): string {
  return (
    `The mining program's config names a mint with ${onChain} decimals, but ${PRODUCT} amounts here assume ` +
    `${TOKEN_DECIMALS}: payouts would be ${onChain > TOKEN_DECIMALS ? `${10 ** (onChain - TOKEN_DECIMALS)}× too small` : `${10 ** (TOKEN_DECIMALS - onChain)}× too large`}. Initialise the program with a ${TOKEN_DECIMALS}-decimal mint.`
  );
}

export function createMining(deps: AppDeps, events: EngineEvents, access?: AccessControl): Mining {
  const { config, prisma, clock, logger, metrics } = deps;
  const program = miningProgram(deps.rpc.connection);
  const records: StreamerRecords =
    deps.streamerRecords ??
    chainStreamerRecords(program, {
      wsUrl: deps.rpc.wsUrl,
      logger,
      now: () => clock.now().getTime(),
    });
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
  // Who is live on the demo platform is kept in the database, as a real platform's state is outside the API.
  const demo = config.demoPlatform ? (deps.demoPlatform ?? new DemoPlatform(prisma)) : undefined;
  const { httpTimeoutMs } = config.platforms;
  const twitch = new TwitchPlatform({ ...config.platforms.twitch, httpTimeoutMs, metrics }, logger);
  const tiktok = new TikTokPlatform({ ...config.platforms.tiktok, httpTimeoutMs, metrics }, logger);
  const { youtube: youtubeConfig, kick: kickConfig } = config.platforms;
  const youtube = new YouTubePlatform(
    { ...youtubeConfig, httpTimeoutMs, metrics },
    logger,
    youtubeRefreshTokens(prisma, youtubeConfig.clientSecret),
  );
  const kick = new KickPlatform({ ...kickConfig, httpTimeoutMs, metrics }, logger);
  const platforms = new Map<StreamPlatform, PlatformAdapter>([
    ['twitch', twitch],
    ['tiktok', tiktok],
    ['youtube', youtube],
    ['kick', kick],
  ]);
  for (const adapter of deps.platforms ?? []) platforms.set(adapter.platform, adapter);
  if (demo) platforms.set('demo', demo);

  const membership = new ClusterMembership(
    prisma,
    logger,
    config.mining.instanceLeaseMs,
    deps.databaseUrl,
    metrics,
  );
  const streamers = new StreamerStore(prisma);
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
    platforms,
    events,
    options: config.mining,
  });
  const claims = new ClaimService({
    prisma,
    connection: deps.rpc.connection,
    clock,
    logger,
    treasury: () => treasuryOf(deps, program),
    isLive: (wallet) => engine.liveAnywhere(wallet),
    ...(access ? { hasAccess: (wallet: string) => access.allowedNow(wallet) } : {}),
    chainAvailable: () => deps.rpc.available(),
  });
  const tierActions = new TierActions({
    prisma,
    program,
    records,
    logger,
    endLiveSession: (wallet) => engine.stopSession(wallet, 'tier-deactivated'),
    chainAvailable: () => deps.rpc.available(),
  });

  let unwatchConfig: (() => void) | undefined;
  let tiersLoop: BackgroundLoop | undefined;
  let reconcileLoop: BackgroundLoop | undefined;
  return {
    tiers,
    engine,
    streamers,
    counters,
    claims,
    tierActions,
    demo,
    twitch,
    tiktok,
    youtube,
    kick,
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
      await demo?.load();
      await membership.join();
      // The chain watch subscribes now rather than at the first start (which waits for it, bounded).
      records
        .ready(10_000)
        .then((ok) => ok || logger.warn('chain watch not subscribed yet; retrying with backoff'))
        .catch((err: unknown) => logger.warn({ err }, 'chain watch failed to start'));
      await engine.run(config.mining.tickMs, config.mining.sweepMs);
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
      twitch.stop();
      tiktok.stop();
      youtube.stop();
      kick.stop();
      await membership.leave();
    },
  };
}
