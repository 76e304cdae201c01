import { mkdirSync } from 'node:fs';
import { createApp } from './app.ts';
import { createChain } from './chain.ts';
import { systemClock } from './clock.ts';
import type { Config } from './config.ts';
import { openDatabase } from './db/index.ts';
import { createLogger } from './logger.ts';
import { startChain } from './local-chain.ts';
import { seedDefaultTiers } from './services/tiers.ts';

/** Starts everything for a validated config; resolves once the API listens. */
export async function startServer(config: Config): Promise<void> {
  const logger = createLogger(config.logLevel);
  mkdirSync(config.dataDir, { recursive: true });

  const db = await openDatabase(config, logger);
  const seeded = await seedDefaultTiers(db.prisma);
  if (seeded) logger.info({ seeded }, 'default tiers seeded');

  const local = await startChain(config, logger).catch(async (err: unknown) => {
    await db.close();
    throw err;
  });
  const chain = createChain(local.rpcUrl, local.wsUrl);
  const { server, io } = createApp({
    config,
    prisma: db.prisma,
    chain,
    clock: systemClock,
    logger,
    localChain: local.local,
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, config.host, resolve);
  }).catch(async (err: unknown) => {
    // e.g. the port is taken: leave nothing running behind.
    await local.stop();
    await db.close();
    throw err;
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
    io.close();
    await new Promise((resolve) => server.close(resolve));
    await local.stop();
    await db.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
}
