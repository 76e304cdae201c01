// Several API instances on one PostgreSQL: each registers itself with a lease it renews while it lives. A
// live mining session belongs to one instance (mining_sessions.owner_instance); an instance whose lease ran
// out is dead, and another instance takes its sessions over (see services/mining/store.ts). Leases are
// timed by PostgreSQL's clock, the one clock every instance shares.
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import pg from 'pg';
import type { PrismaClient } from '../db/index.ts';
import type { Logger } from '../logger.ts';

const RENEW = `
  INSERT INTO api_instances (id, lease_until)
  VALUES ($1, (now() AT TIME ZONE 'UTC') + make_interval(secs => $2::int / 1000.0))
  ON CONFLICT (id) DO UPDATE SET lease_until = EXCLUDED.lease_until`;

export class ClusterMembership {
  /** Unique per process start: a restarted instance is a new member and never inherits by name. */
  readonly id = `${hostname()}-${process.pid}-${randomUUID().slice(0, 8)}`;
  private timer: NodeJS.Timeout | undefined;
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
  ) {
    if (databaseUrl) {
      this.own = new pg.Pool({ connectionString: databaseUrl, max: 1, application_name: 'strm-api lease' });
      // A dropped connection is replaced at the next renewal; say so rather than crash on the error event.
      this.own.on('error', (err) => this.logger.warn({ err: err.message }, 'instance lease connection lost'));
    }
  }

  async join(): Promise<void> {
    await this.renew();
    // Renewed three times per lease, so a slow query or a GC pause does not let it lapse.
    this.timer = setInterval(
      () => {
        void this.renew().catch((err: unknown) => this.logger.warn({ err }, 'instance lease renewal failed'));
      },
      Math.max(100, Math.floor(this.leaseMs / 3)),
    );
    this.timer.unref();
  }

  private async renew(): Promise<void> {
    if (this.own) await this.own.query(RENEW, [this.id, this.leaseMs]);
    else await this.prisma.$executeRawUnsafe(RENEW, this.id, this.leaseMs);
  }

  /** Leaves at shutdown (after releasing its sessions), and forgets members long dead. */
  async leave(): Promise<void> {
    clearInterval(this.timer);
    await this.own?.end();
    await this.prisma.$executeRaw`
      DELETE FROM api_instances
       WHERE id = ${this.id} OR lease_until < (now() AT TIME ZONE 'UTC') - interval '1 day'`;
  }
}
