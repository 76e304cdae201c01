import type { ChainInfo } from '@strm/local-chain';
import type { Chain } from './chain.ts';
import type { Clock } from './clock.ts';
import type { Config } from './config.ts';
import type { PrismaClient } from './db/index.ts';
import type { Lifecycle } from './lifecycle.ts';
import type { Logger } from './logger.ts';
import type { Metrics } from './observability/metrics.ts';

/** What the app is built from; tests pass their own (fresh database, fake clock, a test chain). */
export interface AppDeps {
  config: Config;
  prisma: PrismaClient;
  chain: Chain;
  clock: Clock;
  logger: Logger;
  /** Set when the API runs the project's local chain (enables the faucet). */
  localChain?: ChainInfo;
  /** The process's metrics registry (created when absent); services may register their own metrics. */
  metrics?: Metrics;
  /** Start/stop order and readiness (created when absent). */
  lifecycle?: Lifecycle;
}
