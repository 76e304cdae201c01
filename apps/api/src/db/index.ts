import { join } from 'node:path';
import { PrismaPg } from '@prisma/adapter-pg';
import type { Config } from '../config.ts';
import { PrismaClient } from '../generated/prisma/client.ts';
import type { Logger } from '../logger.ts';
import { applyMigrations } from './schema-engine.ts';

export type { PrismaClient };

export function createPrisma(url: string): PrismaClient {
  return new PrismaClient({ adapter: new PrismaPg({ connectionString: url }) });
}

export interface Database {
  prisma: PrismaClient;
  url: string;
  embedded: boolean;
  close(): Promise<void>;
}

/** DATABASE_URL when set, else the embedded PostgreSQL under DATA_DIR; migrated before use. */
export async function openDatabase(config: Config, logger: Logger): Promise<Database> {
  // The embedded server is development tooling (not installed in the production image): loaded only here.
  const embedded = config.databaseUrl
    ? undefined
    : await (await import('./embedded.ts')).startEmbeddedPostgres({
        dir: join(config.dataDir, 'postgres'),
        port: config.embeddedPgPort,
        database: 'strm',
        onLog: (line) => logger.debug({ postgres: line.trim() }),
      });
  const url = config.databaseUrl ?? embedded!.url;
  try {
    const applied = await applyMigrations(url);
    if (applied.length) logger.info({ applied }, 'database migrations applied');
  } catch (err) {
    await embedded?.stop();
    throw err;
  }
  const prisma = createPrisma(url);
  return {
    prisma,
    url,
    embedded: Boolean(embedded),
    async close() {
      await prisma.$disconnect();
      await embedded?.stop();
    },
  };
}
