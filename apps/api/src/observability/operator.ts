// What an operator watches and is woken by (docs/operations.md#alerts): the treasury's balances against what
// the product owes, how payouts fare, the dependencies' state, and the sockets each instance holds. Read at
// scrape time through short caches: a scrape never waits on a stalled chain or database for more than a
// moment, never fails, and a Prometheus scraping every few seconds costs the chain one read per TTL.
import { hostname } from 'node:os';
import type { Connection, PublicKey } from '@solana/web3.js';
import { Counter, Gauge, type Metric } from 'prom-client';
import type { PrismaClient } from '../generated/prisma/client.ts';
import type { Logger } from '../logger.ts';
import type { Metrics } from './metrics.ts';

/** What the gauges read of the treasury (services/rewards/treasury.ts's Treasury has it). */
interface TreasuryAccounts {
  tokenAccount: PublicKey;
  owner: { publicKey: PublicKey };
}

/** The treasury's balances change with payouts only: a minute-old figure is as good for an alert. */
export const TREASURY_TTL_MS = 30_000;
/** The database's figures (sums over claims and streamers): one set of queries per this, whatever the scrapers. */
export const LEDGER_TTL_MS = 10_000;
/** /health's probes answer within a second; their answer is kept this long. */
export const HEALTH_TTL_MS = 5_000;
/** How long a scrape waits for a refresh before answering with the last figures. */
const SCRAPE_WAIT_MS = 1_500;
/** Reserve → confirmed, in seconds: a payout confirms in seconds, the reconciler settles stragglers in minutes. */
export const PAYOUT_SECONDS_BUCKETS = [1, 2, 5, 10, 30, 60, 120, 300, 600, 1800];

/**
 * A value read at most once per `ttlMs` (one read at a time); `get` waits for a due read for a moment, then
 * answers with the last value (undefined before the first read). A failed read keeps the last value.
 */
export function cachedRead<T>(ttlMs: number, read: () => Promise<T>, logger?: Logger, what = 'metrics read') {
  let value: T | undefined;
  let readAt = Number.NEGATIVE_INFINITY;
  let running: Promise<void> | undefined;
  let failing = false;
  const refresh = () => {
    running ??= read()
      .then((v) => {
        value = v;
        failing = false;
      })
      .catch((err: unknown) => {
        if (!failing) logger?.warn({ err, what }, 'metrics: read failed; the last figures are reported');
        failing = true;
      })
      .finally(() => {
        readAt = Date.now();
        running = undefined;
      });
    return running;
  };
  return {
    async get(): Promise<T | undefined> {
      if (Date.now() - readAt >= ttlMs) {
        let timer: NodeJS.Timeout | undefined;
        const waited = new Promise((r) => {
          timer = setTimeout(r, SCRAPE_WAIT_MS);
        });
        await Promise.race([refresh(), waited]);
        clearTimeout(timer);
      }
      return value;
    },
  };
}

export interface OperatorSources {
  prisma: PrismaClient;
  connection: Connection;
  /** The treasury payouts come from (null: none configured; collects are refused). */
  treasury: () => Promise<TreasuryAccounts | null>;
  /** /health's answer (services/health.ts). */
  health: () => Promise<Record<string, { ok: boolean; restarts?: number } | string | undefined>>;
  /** Connected sockets by Socket.IO namespace, on this instance. */
  sockets: () => Map<string, number>;
  logger?: Logger;
}

/** This instance's name in per-instance series: the host (a container's id under Compose). */
export const API_INSTANCE = process.env.HOSTNAME || hostname();

export function registerOperatorMetrics(metrics: Metrics, sources: OperatorSources): void {
  const registers = [metrics.registry];
  const { logger } = sources;

  // ---- the treasury, on chain ----
  let treasury: Promise<TreasuryAccounts | null> | undefined;
  const balances = cachedRead(
    TREASURY_TTL_MS,
    async () => {
      treasury ??= sources.treasury().catch((err: unknown) => {
        treasury = undefined;
        throw err;
      });
      const t = await treasury;
      if (!t) return null;
      const [token, lamports] = await Promise.all([
        sources.connection.getTokenAccountBalance(t.tokenAccount, 'confirmed'),
        sources.connection.getBalance(t.owner.publicKey, 'confirmed'),
      ]);
      return { units: Number(token.value.amount), lamports };
    },
    logger,
    'treasury balances',
  );
  optionalGauge(
    metrics,
    'strm_treasury_token_units',
    'STRM (base units, 6 decimals) in the treasury token account rewards are paid from, read from the chain at most every 30 s',
    async () => (await balances.get())?.units,
  );
  optionalGauge(
    metrics,
    'strm_treasury_sol_lamports',
    "SOL (lamports) of the treasury's owner, which pays every payout's fee and new token accounts, read at most every 30 s",
    async () => (await balances.get())?.lamports,
  );

  // ---- what is owed and how payouts fare, from the database every instance shares ----
  const settled = new SettledClaims(sources.prisma);
  const ledger = cachedRead(
    LEDGER_TTL_MS,
    () => readLedger(sources.prisma, settled),
    logger,
    'payout ledger',
  );
  optionalGauge(
    metrics,
    'strm_pending_reward_units',
    'Rewards owed to streamers and not yet collected (base units, all wallets; the same on every instance)',
    async () => (await ledger.get())?.pendingUnits,
  );
  optionalGauge(
    metrics,
    'strm_reward_claims_unsettled_oldest_seconds',
    'Age of the oldest payout reserved or sent and not yet settled (0: none); the reconciler settles them within minutes',
    async () => (await ledger.get())?.oldestUnsettledSeconds,
  );
  new Counter({
    name: 'strm_payout_failures_total',
    help:
      'Payouts that paid nothing and were re-credited, by reason (counted in the database: the same on every ' +
      'instance): expired, chain_error, destination_unusable, never_sent, released_before_send, not_built, other',
    labelNames: ['reason'],
    registers,
    async collect() {
      const l = await ledger.get();
      if (!l) return;
      this.reset();
      for (const [reason, n] of l.failures) this.inc({ reason }, n);
    },
  });
  registerLedgerHistogram(metrics, ledger);

  // ---- dependencies, as /health answers ----
  const health = cachedRead(HEALTH_TTL_MS, () => sources.health(), logger, 'health');
  const dependencyOf = (h: Awaited<ReturnType<OperatorSources['health']>>) =>
    Object.entries(h).filter(
      (e): e is [string, { ok: boolean; restarts?: number }] => typeof e[1] === 'object' && e[1] !== null,
    );
  new Gauge({
    name: 'strm_dependency_up',
    help: "Whether a dependency answers this instance's /health probe within a second (1) or not (0): database, chain, redis",
    labelNames: ['dependency'],
    registers,
    async collect() {
      const h = await health.get();
      if (!h) return;
      for (const [name, c] of dependencyOf(h)) this.set({ dependency: name }, c.ok ? 1 : 0);
    },
  });
  new Counter({
    name: 'strm_dependency_restarts_total',
    help: 'Restarts of a process this instance supervises (the embedded database, the local chain) since it started',
    labelNames: ['dependency'],
    registers,
    async collect() {
      const h = await health.get();
      if (!h) return;
      this.reset();
      for (const [name, c] of dependencyOf(h))
        if (c.restarts !== undefined) this.inc({ dependency: name }, c.restarts);
    },
  });

  // ---- sockets ----
  new Gauge({
    name: 'strm_sockets',
    help: 'Socket.IO clients connected to this instance, by namespace (/ for the dashboard, /overlay for overlays) and instance',
    labelNames: ['namespace', 'api_instance'],
    registers,
    collect() {
      this.reset();
      for (const [namespace, n] of sources.sockets()) this.set({ namespace, api_instance: API_INSTANCE }, n);
    },
  });
}

interface Ledger {
  pendingUnits: number;
  oldestUnsettledSeconds: number;
  failures: Map<string, number>;
  /** Confirmed payouts' reserve → confirmed seconds: counts at or below each bucket bound, their sum and count. */
  latency: { buckets: number[]; sum: number; count: number };
}

/** A failed or expired claim's reason, from the error its release recorded (services/rewards/claims.ts). */
export function failureReason(status: string, error: string | null): string {
  if (status === 'expired') return 'expired';
  const text = error ?? '';
  if (/failed on chain|refused by the chain/.test(text)) return 'chain_error';
  if (/destination token account/.test(text)) return 'destination_unusable';
  if (/never sent/.test(text)) return 'never_sent';
  if (/released before/.test(text)) return 'released_before_send';
  if (/not built/.test(text)) return 'not_built';
  return 'other';
}

/**
 * Settled claims never change again, so they are counted once: the whole table below a frontier at the first
 * read (a few seconds at a million claims, in the background), then only the claims from the frontier on (by
 * the primary key). The frontier stays at the oldest claim still in flight, and within a minute of the newest,
 * so a reservation committed after a later one is never passed over; those at or above it already counted are
 * remembered by id.
 */
export class SettledClaims {
  private frontier: number | undefined;
  private readonly counted = new Set<number>();
  /** Confirmed claims by width_bucket of their seconds (bucket k: bounds[k-1] <= s < bounds[k]). */
  private readonly perBucket = new Array<number>(PAYOUT_SECONDS_BUCKETS.length + 1).fill(0);
  private sum = 0;
  private count = 0;
  readonly failures = new Map<string, number>();

  constructor(private readonly prisma: PrismaClient) {}

  async read(): Promise<void> {
    const prisma = this.prisma;
    const bounds = PAYOUT_SECONDS_BUCKETS;
    if (this.frontier === undefined) {
      const [row] = await prisma.$queryRaw<Array<{ frontier: number }>>`
        SELECT coalesce(
          (SELECT min(id) FROM reward_claims
            WHERE status IN ('reserved', 'sent')
               OR created_at > (now() AT TIME ZONE 'UTC') - interval '60 seconds'),
          (SELECT coalesce(max(id), 0) + 1 FROM reward_claims))::int AS frontier`;
      const frontier = row!.frontier;
      const [latency, failed] = await Promise.all([
        prisma.$queryRaw<Array<{ bucket: number; n: bigint; seconds: number }>>`
          WITH c AS (
            SELECT greatest(0, extract(epoch FROM settled_at - created_at))::float8 AS s
              FROM reward_claims WHERE id < ${frontier} AND status = 'confirmed' AND settled_at IS NOT NULL)
          SELECT width_bucket(s, ${bounds}::float8[]) AS bucket, count(*) AS n, sum(s)::float8 AS seconds
            FROM c GROUP BY 1`,
        prisma.$queryRaw<Array<{ status: string; error: string | null; n: bigint }>>`
          SELECT status::text AS status, error, count(*) AS n FROM reward_claims
           WHERE id < ${frontier} AND status IN ('failed', 'expired') GROUP BY 1, 2`,
      ]);
      for (const r of latency) {
        this.perBucket[r.bucket]! += Number(r.n);
        this.sum += r.seconds;
        this.count += Number(r.n);
      }
      for (const r of failed) this.fail(r.status, r.error, Number(r.n));
      this.frontier = frontier;
    }
    const rows = await prisma.$queryRaw<
      Array<{ id: number; status: string; error: string | null; seconds: number | null; recent: boolean }>
    >`
      SELECT id, status::text AS status, error,
             greatest(0, extract(epoch FROM settled_at - created_at))::float8 AS seconds,
             created_at > (now() AT TIME ZONE 'UTC') - interval '60 seconds' AS recent
        FROM reward_claims WHERE id >= ${this.frontier} ORDER BY id`;
    let next: number | undefined;
    for (const r of rows) {
      const final = r.status !== 'reserved' && r.status !== 'sent';
      if (!final || r.recent) next ??= r.id;
      if (!final || this.counted.has(r.id)) continue;
      this.counted.add(r.id);
      if (r.status === 'confirmed' && r.seconds !== null) {
        this.perBucket[bucketOf(r.seconds)]! += 1;
        this.sum += r.seconds;
        this.count += 1;
      } else if (r.status !== 'confirmed') this.fail(r.status, r.error, 1);
    }
    this.frontier = next ?? (rows.length ? rows[rows.length - 1]!.id + 1 : this.frontier);
    for (const id of this.counted) if (id < this.frontier) this.counted.delete(id);
  }

  private fail(status: string, error: string | null, n: number) {
    const reason = failureReason(status, error);
    this.failures.set(reason, (this.failures.get(reason) ?? 0) + n);
  }

  /** Cumulative counts at or below each bound, their sum and count. */
  latency(): Ledger['latency'] {
    const buckets: number[] = [];
    let running = 0;
    for (let i = 0; i < PAYOUT_SECONDS_BUCKETS.length; i++) {
      running += this.perBucket[i]!;
      buckets.push(running);
    }
    return { buckets, sum: this.sum, count: this.count };
  }
}

/** width_bucket's answer for one value: how many bounds are at or below it. */
function bucketOf(seconds: number): number {
  let k = 0;
  while (k < PAYOUT_SECONDS_BUCKETS.length && PAYOUT_SECONDS_BUCKETS[k]! <= seconds) k++;
  return k;
}

async function readLedger(prisma: PrismaClient, settled: SettledClaims): Promise<Ledger> {
  const [pending, unsettled] = await Promise.all([
    prisma.$queryRaw<Array<{ units: bigint | null }>>`
      SELECT sum(pending_reward_units) AS units FROM streamers`,
    prisma.$queryRaw<Array<{ seconds: number | null }>>`
      SELECT extract(epoch FROM (now() AT TIME ZONE 'UTC') - min(created_at))::float8 AS seconds
        FROM reward_claims WHERE status IN ('reserved', 'sent')`,
    settled.read(),
  ]);
  return {
    pendingUnits: Number(pending[0]?.units ?? 0),
    oldestUnsettledSeconds: Math.max(0, unsettled[0]?.seconds ?? 0),
    failures: new Map(settled.failures),
    latency: settled.latency(),
  };
}

type Sample = { metricName?: string; labels: Record<string, string | number>; value: number };

/**
 * A metric written out by `values` at each scrape. prom-client's own report a gauge that was never set as 0,
 * which for a treasury whose balance could not be read would be a false alarm: these report nothing instead.
 */
function customMetric(
  metrics: Metrics,
  name: string,
  help: string,
  type: string,
  values: () => Promise<Sample[]>,
) {
  const metric = {
    name,
    help,
    type,
    aggregator: 'max',
    async get() {
      return { name, help, type, aggregator: 'max', values: await values() };
    },
  };
  metrics.registry.registerMetric(metric as unknown as Metric);
}

/** A gauge with no series while its value is unknown (not read yet, or its source unreachable from the start). */
function optionalGauge(
  metrics: Metrics,
  name: string,
  help: string,
  read: () => Promise<number | undefined>,
) {
  customMetric(metrics, name, help, 'gauge', async () => {
    const value = await read();
    return value === undefined ? [] : [{ labels: {}, value }];
  });
}

/**
 * `strm_payout_duration_seconds`: a histogram whose counts are the database's (every confirmed claim), so it
 * is the same on every instance and survives restarts (prom-client's Histogram only observes).
 */
function registerLedgerHistogram(metrics: Metrics, ledger: { get(): Promise<Ledger | undefined> }) {
  const name = 'strm_payout_duration_seconds';
  customMetric(
    metrics,
    name,
    'Payouts confirmed, by seconds from the reservation of the claim to its confirmation on chain (all instances: aggregate with max)',
    'histogram',
    async (): Promise<Sample[]> => {
      const l = await ledger.get();
      if (!l) return [];
      return [
        ...PAYOUT_SECONDS_BUCKETS.map((le, i) => ({
          metricName: `${name}_bucket`,
          labels: { le },
          value: l.latency.buckets[i]!,
        })),
        { metricName: `${name}_bucket`, labels: { le: '+Inf' }, value: l.latency.count },
        { metricName: `${name}_sum`, labels: {}, value: l.latency.sum },
        { metricName: `${name}_count`, labels: {}, value: l.latency.count },
      ];
    },
  );
}
