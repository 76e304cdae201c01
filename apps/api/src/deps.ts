import type { LocalChainInfo } from '@strm/local-chain';
import type { Rpc } from './rpc/rpc.ts';
import type { Clock } from './clock.ts';
import type { Config } from './config.ts';
import type { PrismaClient } from './db/index.ts';
import type { Lifecycle } from './lifecycle.ts';
import type { Logger } from './logger.ts';
import type { Dependencies } from './observability/dependencies.ts';
import type { Metrics } from './observability/metrics.ts';
import type { PlatformAdapter } from './platforms/adapter.ts';
import type { DemoPlatform } from './platforms/demo.ts';
import type { StreamerRecords } from './rpc/streamer-records.ts';

/** What the app is built from; tests pass their own (fresh database, fake clock, a test chain). */
export interface AppDeps {
  config: Config;
  prisma: PrismaClient;
  /** The database's URL: with it the cluster lease is renewed on a connection of its own. */
  databaseUrl?: string;
  rpc: Rpc;
  clock: Clock;
  logger: Logger;
  /** Set when the API runs the project's local chain (enables the faucet). */
  localChainInfo?: LocalChainInfo;
  /** The process's metrics registry (created when absent); services may register their own metrics. */
  metrics?: Metrics;
  /** Supervised processes and Redis, for /health (server.ts fills it in as they start). */
  dependencies?: Dependencies;
  /** Start/stop order and readiness (created when absent). */
  lifecycle?: Lifecycle;
  /** Streaming platforms (Twitch, TikTok); the demo platform is added by configuration (DEMO_PLATFORM). */
  platforms?: PlatformAdapter[];
  /** Tests may pass the demo platform to toggle live themselves. */
  demoPlatform?: DemoPlatform;
  /** Defaults to the streamer records on `chain` (the program's accounts). */
  streamerRecords?: StreamerRecords;
}
