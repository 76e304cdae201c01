import type { Health } from '@strm/shared';
import type { Chain } from '../chain.ts';
import type { PrismaClient } from '../db/index.ts';

const TIMEOUT_MS = 2000;

function withTimeout<T>(promise: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not answer within ${TIMEOUT_MS} ms`)), TIMEOUT_MS);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

async function check(probe: () => Promise<unknown>, what: string): Promise<Health['database']> {
  try {
    await withTimeout(probe(), what);
    return { ok: true };
  } catch (err) {
    return { ok: false, error: err instanceof Error ? err.message : String(err) };
  }
}

export async function checkHealth(prisma: PrismaClient, chain: Chain): Promise<Health> {
  const [database, chainHealth] = await Promise.all([
    check(() => prisma.$queryRaw`SELECT 1`, 'database'),
    check(() => chain.ping(), 'chain'),
  ]);
  return { status: database.ok && chainHealth.ok ? 'ok' : 'degraded', database, chain: chainHealth };
}
