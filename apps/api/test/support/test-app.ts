import { randomBytes } from 'node:crypto';
import type { LocalChainInfo } from '@strm/local-chain';
import pg from 'pg';
import { inject } from 'vitest';
import { createApp } from '../../src/app.ts';
import { type Rpc, createRpc } from '../../src/rpc/rpc.ts';
import type { Clock } from '../../src/clock.ts';
import { type Config, loadConfig } from '../../src/config.ts';
import { createPrisma, type PrismaClient } from '../../src/db/index.ts';
import { applyMigrations } from '../../src/db/schema-engine.ts';
import { createLogger } from '../../src/logger.ts';
import { grantBetaAccess } from '../../src/services/beta-access.ts';
import { seedDefaultTiers } from '../../src/services/tiers/catalog.ts';

export async function adminQuery(url: string, sql: string, params: unknown[] = []) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await client.query(sql, params);
  } finally {
    await client.end();
  }
}

export function databaseUrl(adminUrl: string, name: string): string {
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/** A fresh, migrated database on the suite's PostgreSQL server. */
export async function createTestDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const admin = inject('adminDatabaseUrl');
  const name = `strm_test_${randomBytes(6).toString('hex')}`;
  await adminQuery(admin, `CREATE DATABASE "${name}"`);
  const url = databaseUrl(admin, name);
  await applyMigrations(url);
  return {
    url,
    drop: () => adminQuery(admin, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`).then(() => {}),
  };
}

/**
 * Gives wallets beta access through the admin service (what `PUT /admin/beta-access/:wallet` and `pnpm
 * admin grant` run): the set-up of every test whose wallets use the dashboard's routes and sockets.
 */
export async function grantAccess(prisma: PrismaClient, ...wallets: string[]): Promise<void> {
  for (const wallet of wallets) await grantBetaAccess(prisma, 'test-setup', wallet, new Date());
}

/** Gives the wallet a mining history (one closed session ending `at`): a raise of its pending reward needs one. */
export async function minedOnce(prisma: PrismaClient, wallet: string, at: Date): Promise<void> {
  await prisma.streamer.upsert({ where: { wallet }, create: { wallet }, update: {} });
  await prisma.miningSession.create({
    data: {
      wallet,
      platform: 'demo',
      tierName: 'Tier 1',
      rateUnitsPerHour: 250_000n,
      startedAt: new Date(at.getTime() - 60_000),
      accruedUntil: at,
      endedAt: at,
      endReason: 'stopped',
    },
  });
}

/** A mutable clock for tests. */
export function fakeClock(
  start = new Date('2026-01-01T00:00:00Z'),
): Clock & { set(d: Date): void; advance(ms: number): void } {
  let now = start.getTime();
  return {
    now: () => new Date(now),
    set: (d) => {
      now = d.getTime();
    },
    advance: (ms) => {
      now += ms;
    },
  };
}

export const TEST_JWT_SECRET = 'test-secret-for-session-tokens-0123456789';

export interface TestApp {
  app: ReturnType<typeof createApp>['app'];
  server: ReturnType<typeof createApp>['server'];
  io: ReturnType<typeof createApp>['io'];
  prisma: PrismaClient;
  config: Config;
  clock: ReturnType<typeof fakeClock>;
  databaseUrl: string;
  /** The app's services (its platform adapters, its engine), as the instance wired them. */
  services: ReturnType<typeof createApp>['services'];
  close(): Promise<void>;
}

/** The real app over a fresh database; the chain defaults to an address nothing listens on. */
export async function startTestApp(
  opts: {
    rpc?: Rpc;
    env?: Record<string, string>;
    localChainInfo?: LocalChainInfo;
    /** Another app's database (a second instance of one deployment): not dropped at close. */
    databaseUrl?: string;
  } = {},
): Promise<TestApp> {
  const db = opts.databaseUrl ? { url: opts.databaseUrl, drop: async () => {} } : await createTestDatabase();
  const config = loadConfig({
    NODE_ENV: 'test',
    DATABASE_URL: db.url,
    JWT_SECRET: TEST_JWT_SECRET,
    AUTH_RATE_LIMIT_PER_MINUTE: '1000',
    TIERS_REFRESH_MS: '200',
    ...opts.env,
  });
  const prisma = createPrisma(db.url);
  await seedDefaultTiers(prisma);
  const rpc = opts.rpc ?? createRpc('http://127.0.0.1:9');
  const clock = fakeClock();
  const { app, server, io, services, lifecycle } = createApp({
    config,
    prisma,
    rpc,
    clock,
    logger: createLogger('silent'),
    localChainInfo: opts.localChainInfo,
  });
  await services.start();
  return {
    app,
    server,
    io,
    prisma,
    config,
    clock,
    databaseUrl: db.url,
    services,
    async close() {
      io.close();
      if (server.listening) await new Promise((resolve) => server.close(resolve));
      await services.stop();
      await lifecycle.closeAll();
      await prisma.$disconnect();
      await db.drop();
    },
  };
}
