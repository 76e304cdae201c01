// /health: each dependency's state, probed with a short timeout so the answer comes within about a second
// whatever is down (a stalled chain node answers nothing at all). States, never an error's text (which may
// carry hosts or credentials); the reasons go to the log.
import type { Health } from '@strm/shared';
import type { Rpc } from '../rpc/rpc.ts';
import type { PrismaClient } from '../db/index.ts';
import type { Logger } from '../logger.ts';
import type { Dependencies, SupervisedStatus } from '../observability/dependencies.ts';

export const HEALTH_PROBE_TIMEOUT_MS = 1000;

type Component = Health['database'];

export interface HealthSources {
  prisma: PrismaClient;
  rpc: Rpc;
  dependencies?: Dependencies;
  logger?: Logger;
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

async function probe(
  name: string,
  run: () => Promise<unknown>,
  timeoutMs: number,
  supervised: SupervisedStatus | undefined,
  logger: Logger | undefined,
): Promise<Component> {
  const restarts = supervised ? { restarts: supervised.restarts } : {};
  try {
    // The probe may go on after the timeout; its outcome is then ignored.
    const running = run();
    running.catch(() => {});
    await withTimeout(running, timeoutMs);
    return { ok: true, state: 'ok', ...restarts };
  } catch (err) {
    logger?.debug({ err, dependency: name }, 'health probe failed');
    return { ok: false, state: supervised?.restarting ? 'restarting' : 'unreachable', ...restarts };
  }
}

export async function checkHealth(
  sources: HealthSources,
  timeoutMs = HEALTH_PROBE_TIMEOUT_MS,
): Promise<Health> {
  const { prisma, rpc, dependencies: deps, logger } = sources;
  const [database, chainHealth, redis] = await Promise.all([
    probe('database', () => prisma.$queryRaw`SELECT 1`, timeoutMs, deps?.database, logger),
    probe('chain', () => rpc.ping(timeoutMs), timeoutMs, deps?.localChain, logger),
    deps?.redis ? probe('redis', () => deps.redis!.ping(), timeoutMs, undefined, logger) : undefined,
  ]);
  const ok = database.ok && chainHealth.ok && (redis?.ok ?? true);
  return {
    status: ok ? 'ok' : 'degraded',
    database,
    chain: chainHealth,
    ...(redis ? { redis } : {}),
  };
}
