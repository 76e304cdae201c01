// Prometheus metrics (prom-client): the process (event-loop lag, memory, handles), HTTP and RPC latency,
// sockets, and the mining figures read from PostgreSQL at scrape time (so every instance reports the same
// totals; aggregate them with max(), not sum()). A registry per app, so tests can run several side by side.
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import type { PrismaClient } from '../generated/prisma/client.ts';

export interface Metrics {
  registry: Registry;
  httpDuration: Histogram<'method' | 'route' | 'status'>;
  rpcDuration: Histogram<'method' | 'outcome'>;
  /** Failed runs of a background loop (tier refresh, checkpoints, lease, sweep, reconciler, …). */
  backgroundFailures: Counter<'loop'>;
  /** Background loops failing now (1) or not (0): a dependency is down. */
  backgroundFailing: Gauge<'loop'>;
  /** Promise rejections nothing handled (each is a bug: the process logs it and goes on). */
  unhandledRejections: Counter;
  /** Sign-ins refused from memory: the same request's signature had already failed verification. */
  signInRefusalsRemembered: Counter;
  /** Admins' pending-reward adjustments by outcome (applied, pending_approval, refused, approved, rejected). */
  adjustments: Counter<'outcome'>;
  /** Base units admins' adjustments added to pending rewards (alert on its rate). */
  adjustmentRaisedUnits: Counter;
  /** Public cards answered, by source (memory or database). */
  publicCardReads: Counter<'source'>;
}

/**
 * The platforms' answers, for every app of the process: the calls are the process's, whichever app made them.
 * Registered in each app's registry below; counted by platforms/fetch.ts.
 */
export const platformRequests = new Counter({
  name: 'strm_platform_requests_total',
  help:
    "Calls to a streaming platform's API by this instance, by platform and outcome: ok (2xx), rate_limited (429), " +
    'refused (another 4xx), error (5xx or a redirect) or unreachable (no answer in time, or no connection)',
  labelNames: ['platform', 'outcome'],
  registers: [],
});

export function createMetrics(): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, eventLoopMonitoringPrecision: 10 });
  registry.registerMetric(platformRequests);
  return {
    registry,
    httpDuration: new Histogram({
      name: 'strm_http_request_duration_seconds',
      help: 'HTTP requests served, by method, route and status',
      labelNames: ['method', 'route', 'status'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
      registers: [registry],
    }),
    rpcDuration: new Histogram({
      name: 'strm_solana_rpc_duration_seconds',
      help: 'Solana JSON-RPC requests made by this instance, by method and outcome',
      labelNames: ['method', 'outcome'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: [registry],
    }),
    backgroundFailures: new Counter({
      name: 'strm_background_failures_total',
      help: 'Failed runs of a background loop, by loop (each is retried with back-off)',
      labelNames: ['loop'],
      registers: [registry],
    }),
    backgroundFailing: new Gauge({
      name: 'strm_background_failing',
      help: 'Whether a background loop is failing now (1) or not (0), by loop',
      labelNames: ['loop'],
      registers: [registry],
    }),
    unhandledRejections: new Counter({
      name: 'strm_unhandled_rejections_total',
      help: 'Promise rejections nothing handled (logged with their origin; the process goes on)',
      registers: [registry],
    }),
    signInRefusalsRemembered: new Counter({
      name: 'strm_sign_in_refusals_remembered_total',
      help: 'Sign-in requests refused at once because the same signature had already failed verification',
      registers: [registry],
    }),
    adjustments: new Counter({
      name: 'strm_pending_reward_adjustments_total',
      help: "Admins' pending-reward adjustments, by outcome (applied, pending_approval, refused, approved, rejected)",
      labelNames: ['outcome'],
      registers: [registry],
    }),
    publicCardReads: new Counter({
      name: 'strm_public_card_reads_total',
      help: 'Public cards answered, by source: memory (kept for 30 s, or a read already under way) or database',
      labelNames: ['source'],
      registers: [registry],
    }),
    adjustmentRaisedUnits: new Counter({
      name: 'strm_pending_reward_adjustment_raised_units_total',
      help: "Base units admins' adjustments added to pending rewards (applied or approved raises)",
      registers: [registry],
    }),
  };
}

/** A gauge whose value is read when Prometheus scrapes (e.g. connected sockets). */
export function scrapedGauge(metrics: Metrics, name: string, help: string, read: () => number): void {
  new Gauge({
    name,
    help,
    registers: [metrics.registry],
    collect() {
      this.set(read());
    },
  });
}

const SCRAPE_QUERY_TIMEOUT_MS = 2000;

/** Live sessions, accrued units and payouts by state, from the database every instance shares. */
export function registerMiningMetrics(metrics: Metrics, prisma: PrismaClient): void {
  // One pair of queries per scrape: the registry collects every gauge at once, so they share it.
  let pending: Promise<void> | undefined;
  const refresh = (): Promise<void> => {
    pending ??= read(prisma)
      .then(({ sessions, byStatus }) => {
        liveSessions.set(Number(sessions?.live ?? 0));
        minedUnits.set(Number(sessions?.mined ?? 0));
        claims.reset();
        claimUnits.reset();
        for (const row of byStatus) {
          claims.set({ status: row.status }, Number(row.n));
          claimUnits.set({ status: row.status }, Number(row.units ?? 0));
        }
      })
      .catch(() => {
        // The database is unreachable: report nothing rather than stale figures.
        for (const gauge of [liveSessions, minedUnits, claims, claimUnits]) gauge.reset();
      })
      .finally(() => {
        setImmediate(() => {
          pending = undefined;
        });
      });
    return pending;
  };
  const registers = [metrics.registry];
  const liveSessions = new Gauge({
    name: 'strm_mining_sessions_live',
    help: 'Mining sessions open now (all instances)',
    registers,
    collect: refresh,
  });
  const minedUnits = new Gauge({
    name: 'strm_mined_units',
    help: 'Token base units accrued by mining sessions, as of their last checkpoint (all instances)',
    registers,
    collect: refresh,
  });
  const claims = new Gauge({
    name: 'strm_reward_claims',
    help: 'Reward payouts by state (all instances)',
    labelNames: ['status'],
    registers,
    collect: refresh,
  });
  const claimUnits = new Gauge({
    name: 'strm_reward_claim_units',
    help: 'Token base units of reward payouts by state (all instances)',
    labelNames: ['status'],
    registers,
    collect: refresh,
  });
}

async function read(prisma: PrismaClient) {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('metrics query timed out')), SCRAPE_QUERY_TIMEOUT_MS);
  });
  try {
    const [sessions, byStatus] = await Promise.race([
      Promise.all([
        prisma.$queryRaw<Array<{ live: bigint; mined: bigint | null }>>`
          SELECT count(*) FILTER (WHERE ended_at IS NULL) AS live, sum(mined_units) AS mined FROM mining_sessions`,
        prisma.$queryRaw<Array<{ status: string; n: bigint; units: bigint | null }>>`
          SELECT status::text AS status, count(*) AS n, sum(amount_units) AS units FROM reward_claims GROUP BY status`,
      ]),
      timeout,
    ]);
    return { sessions: sessions[0], byStatus };
  } finally {
    clearTimeout(timer);
  }
}
