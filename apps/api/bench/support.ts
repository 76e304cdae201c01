// What the API benchmarks share: a real PostgreSQL (embedded, in a temporary directory) with the schema
// migrated and the default tiers seeded.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '@strm/testing';
import { createPrisma, type PrismaClient } from '../src/db/index.ts';
import { startEmbeddedPostgres } from '../src/db/embedded.ts';
import { applyMigrations } from '../src/db/schema-engine.ts';
import { seedDefaultTiers } from '../src/services/tiers.ts';

export async function benchDatabase(): Promise<{ url: string; prisma: PrismaClient; stop(): Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), 'strm-bench-pg-'));
  const pg = await startEmbeddedPostgres({ dir, port: await freePort(), database: 'strm' });
  await applyMigrations(pg.url);
  const prisma = createPrisma(pg.url);
  await seedDefaultTiers(prisma);
  return {
    url: pg.url,
    prisma,
    async stop() {
      await prisma.$disconnect();
      await pg.stop();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

export function percentile(sorted: number[], p: number): number {
  if (!sorted.length) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}
