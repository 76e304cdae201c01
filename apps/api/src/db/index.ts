import { join } from 'node:path';
import { PrismaPg } from '@prisma/adapter-pg';
import type { Config } from '../config.ts';
import { PrismaClient } from '../generated/prisma/client.ts';
import type { Logger } from '../logger.ts';
import type { Metrics } from '../observability/metrics.ts';
import { type Supervision, Supervisor } from '../supervisor.ts';
import type { EmbeddedDatabase } from './embedded.ts';
import { applyMigrations } from './schema-engine.ts';

export type { PrismaClient };

/** Connections in each PrismaClient's pool (pg's default, made explicit: collects are sized to it). */
export const DATABASE_POOL_SIZE = 10;

export function createPrisma(url: string): PrismaClient {
  return new PrismaClient({ adapter: new PrismaPg({ connectionString: url, max: DATABASE_POOL_SIZE }) });
}

export interface Database {
  prisma: PrismaClient;
  url: string;
  embedded: boolean;
  /** The embedded server's supervision (restarted when it dies); absent with DATABASE_URL. */
  supervision?: Supervision;
  close(): Promise<void>;
}

export interface OpenDatabaseOptions {
  metrics?: Metrics;
  /** Told when the embedded server was started again after it died. */
  onRestarted?: (restarts: number) => void;
}

/** DATABASE_URL when set, else the embedded PostgreSQL under DATA_DIR (supervised); migrated before use. */
export async function openDatabase(
  config: Config,
  logger: Logger,
  options: OpenDatabaseOptions = {},
): Promise<Database> {
  let supervisor: Supervisor<EmbeddedDatabase> | undefined;
  let url = config.databaseUrl;
  if (!url) {
    // The embedded server is development tooling (not installed in the production image): loaded only here.
    const { startEmbeddedPostgres } = await import('./embedded.ts');
    supervisor = new Supervisor(
      () =>
        startEmbeddedPostgres({
          dir: join(config.dataDir, 'postgres'),
          port: config.embeddedPgPort,
          database: 'strm',
          onLog: (line) => logger.debug({ postgres: line.trim() }),
          onNotice: (line) => logger.warn(line),
        }),
      { name: 'embedded PostgreSQL', logger, metrics: options.metrics, onRestarted: options.onRestarted },
    );
    url = (await supervisor.start()).url;
  }
  try {
    const applied = await applyMigrations(url);
    if (applied.length) logger.info({ applied }, 'database migrations applied');
  } catch (err) {
    await supervisor?.stop();
    throw err;
  }
  const prisma = createPrisma(url);
  return {
    prisma,
    url,
    embedded: Boolean(supervisor),
    supervision: supervisor,
    async close() {
      await prisma.$disconnect();
      await supervisor?.stop();
    },
  };
}
