// Several API instances on one PostgreSQL: each registers itself with a lease it renews while it lives. A
// live mining session belongs to one instance (mining_sessions.owner_instance); an instance whose lease ran
// out is dead, and another instance takes its sessions over (see services/mining/store.ts). Leases are
// timed by PostgreSQL's clock, the one clock every instance shares.
//
// A database outage stops every instance's renewals at once: when it comes back, each lease has lapsed.
// An instance re-takes its lease before it sweeps, and closes no other instance's sessions as orphans until
// it has been back for a whole lease, so that the others, cut off with it, have renewed theirs by then.
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import type { PrismaClient } from '../db/index.ts';
import type { Logger } from '../logger.ts';
import { type BackgroundLoop, backgroundLoop } from '../observability/background.ts';
import type { Metrics } from '../observability/metrics.ts';

const RENEW = `
  INSERT INTO api_instances (id, lease_until)
  VALUES ($1, (now() AT TIME ZONE 'UTC') + make_interval(secs => $2::int / 1000.0))
  ON CONFLICT (id) DO UPDATE SET lease_until = EXCLUDED.lease_until`;

/** What the mining engine asks of its membership before it takes over or closes sessions. */
export interface Lease {
  /** Renewed less than a lease ago (by this process's clock): no other instance can think it dead. */
  readonly held: boolean;
  /** Held, and not within a lease of coming back from an outage (see above). */
  readonly mayCloseOrphans: boolean;
  renew(): Promise<void>;
}

export class ClusterMembership implements Lease {
  /** Unique per process start: a restarted instance is a new member and never inherits by name. */
  readonly id = `${hostname()}-${process.pid}-${randomUUID().slice(0, 8)}`;
  private loop: BackgroundLoop | undefined;
  /** performance.now() of the last renewal that landed, and of the first one after failures. */
  private renewedAt = -Infinity;
  private backAt = -Infinity;
  private failing = false;
  private left = false;
  /**
   * The lease's own connection (when the database's URL is known): renewals queued behind the application's
   * queries in the shared pool ran late under load (a wave of stream starts), the lease lapsed, and another
   * instance closed this live instance's sessions as orphans.
   */
  private readonly own: pg.Pool | undefined;

  constructor(
    private readonly prisma: PrismaClient,
    private readonly logger: Logger,
    readonly leaseMs: number,
    databaseUrl?: string,
    private readonly metrics?: Metrics,
  ) {
    if (databaseUrl) {
      this.own = new pg.Pool({
        connectionString: databaseUrl,
        max: 1,
        application_name: 'strm-api lease',
        // A renewal that cannot connect fails within a third of the lease instead of hanging.
        connectionTimeoutMillis: Math.max(100, Math.floor(leaseMs / 3)),
      });
      // A dropped connection is replaced at the next renewal; say so rather than crash on the error event.
      this.own.on('error', (err) => this.logger.warn({ err: err.message }, 'instance lease connection lost'));
    }
  }

  get held(): boolean {
    return performance.now() - this.renewedAt < this.leaseMs;
  }

  get mayCloseOrphans(): boolean {
    return this.held && performance.now() - this.backAt >= this.leaseMs;
  }

  /**
   * Resolves once the first renewal has landed. A failed one is retried on the beat rather than failing the
   * start: the database answered the start's queries a moment before, and a busy or briefly unreachable one
   * (a connection not made within a third of the lease on a loaded machine) is a reason to wait, not to stop.
   */
  async join(): Promise<void> {
    // Renewed three times per lease, so a slow query or a GC pause does not let it lapse; a failed renewal
    // is retried on the same beat (backing off would let the lease lapse when the database is back).
    const beat = Math.max(100, Math.floor(this.leaseMs / 3));
    for (let attempt = 1; ; attempt++) {
      // Left (a shutdown during the start) before the database answered: nothing to renew.
      if (this.left) return;
      try {
        await this.renew();
        break;
      } catch (err) {
        // Said once, then every tenth attempt: a database away for minutes does not flood the log.
        if (attempt % 10 === 1)
          this.logger.warn(
            { err: (err as Error).message, attempt },
            'instance lease: not taken yet; retrying',
          );
        await new Promise((resolve) => setTimeout(resolve, beat));
      }
    }
    this.loop = backgroundLoop({
      name: 'instance-lease',
      intervalMs: beat,
      maxBackoffMs: beat,
      run: () => this.renew(),
      logger: this.logger,
      metrics: this.metrics,
    });
  }

  async renew(): Promise<void> {
    const startedAt = performance.now();
    try {
      if (this.own) await this.own.query(RENEW, [this.id, this.leaseMs]);
      else await this.prisma.$executeRawUnsafe(RENEW, this.id, this.leaseMs);
    } catch (err) {
      this.failing = true;
      throw err;
    }
    // The lease runs from when the statement was sent (PostgreSQL's now() is at or after it).
    this.renewedAt = Math.max(this.renewedAt, startedAt);
    if (this.failing) {
      this.failing = false;
      this.backAt = startedAt;
    }
  }

  /** Leaves at shutdown (after releasing its sessions), and forgets members long dead. */
  async leave(): Promise<void> {
    // The engine's stop runs at drain and again at close: leave once.
    if (this.left) return;
    this.left = true;
    await this.loop?.stop();
    await this.own?.end();
    await this.prisma.$executeRaw`
      DELETE FROM api_instances
       WHERE id = ${this.id} OR lease_until < (now() AT TIME ZONE 'UTC') - interval '1 day'`;
  }
}
