import { mkdirSync } from 'node:fs';
import { createApp } from './app.ts';
import { createChain } from './chain.ts';
import { systemClock } from './clock.ts';
import type { Config } from './config.ts';
import { openDatabase } from './db/index.ts';
import { Lifecycle } from './lifecycle.ts';
import { startChain } from './local-chain.ts';
import { createLogger, type Logger } from './logger.ts';
import { createMetrics } from './observability/metrics.ts';
import { resolveJwtSecret } from './services/auth/secret.ts';
import { seedDefaultTiers } from './services/tiers.ts';
import { watchMaintenance } from './socket/maintenance.ts';
import { attachRedisAdapter } from './socket/redis-adapter.ts';

/** Starts everything for a validated config; resolves once the API listens. */
export async function startServer(loaded: Config): Promise<void> {
  const logger = createLogger(loaded.logLevel);
  mkdirSync(loaded.dataDir, { recursive: true });
  const config: Config = { ...loaded, jwtSecret: resolveJwtSecret(loaded) };
  // Whatever starts registers its stop here, so a failure part-way stops exactly what had started.
  const lifecycle = new Lifecycle(logger);
  try {
    await start(config, logger, lifecycle);
  } catch (err) {
    await lifecycle.closeAll();
    throw err;
  }
}

async function start(config: Config, logger: Logger, lifecycle: Lifecycle) {
  const db = await openDatabase(config, logger);
  lifecycle.onClose('database', () => db.close());
  const seeded = await seedDefaultTiers(db.prisma);
  if (seeded) logger.info({ seeded }, 'default tiers seeded');

  const local = await startChain(config, logger);
  lifecycle.onClose('local chain', () => local.stop());
  const metrics = createMetrics();
  const chain = createChain(local.rpcUrl, local.wsUrl, metrics);
  const { server, io, mining } = createApp({
    config,
    prisma: db.prisma,
    databaseUrl: db.url,
    chain,
    clock: systemClock,
    logger,
    localChain: local.local,
    metrics,
    lifecycle,
  });

  if (config.redisUrl) {
    const { host, pathname } = new URL(db.url);
    const redis = await attachRedisAdapter(io, config.redisUrl, `${host}${pathname}`, logger);
    lifecycle.onClose('redis', () => redis.close());
  }
  // Takes over or closes sessions dead instances left and settles claims before anyone connects. At
  // shutdown, before its sockets close, the engine writes a last checkpoint of its live sessions and
  // releases them to the instances their clients reconnect to.
  lifecycle.onDrain('mining engine', () => mining.stop());
  lifecycle.onClose('mining engine', () => mining.stop());
  await mining.start();

  const maintenance = await watchMaintenance(db.url, io, logger, (status) =>
    mining.onMaintenance(status.is_maintenance),
  );
  lifecycle.onClose('maintenance listener', () => maintenance.stop());

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, config.host, resolve);
  });
  const url = `http://${config.host}:${config.port}`;
  logger.info(
    { url, database: db.embedded ? 'embedded' : 'DATABASE_URL', rpc: chain.rpcUrl },
    'STRM is ready',
  );
  process.stdout.write(`\n  STRM Mining Platform is ready at ${url}\n\n`);

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    const deadline = setTimeout(() => {
      logger.error({ timeoutMs: config.shutdownTimeoutMs }, 'shutdown took too long; exiting');
      process.exit(1);
    }, config.shutdownTimeoutMs);
    deadline.unref();
    await lifecycle.shutdown(server, io);
    logger.info('stopped');
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
}
