// mining_sessions in memory, with the conditions the real statements put on each write (store.ts): every
// write of an open session needs this instance to own it; a dead owner is one whose lease (`leases`, ms on
// the test's clock) has run out. Every call is recorded; a method in `failing` throws as a database away would.
import type { Clock } from '../../src/clock.ts';
import {
  type Checkpoint,
  type NewSession,
  OpenSessionExists,
  type SessionRow,
  type SessionStore,
} from '../../src/services/mining/store.ts';

type Method = keyof SessionStore;

export class FakeSessionStore {
  readonly rows = new Map<number, SessionRow>();
  /** Instance id → lease_until (ms): alive while it is after now. */
  readonly leases = new Map<string, number>();
  /** Wallet → pending reward (base units), credited by closes. */
  readonly pending = new Map<string, bigint>();
  /** Wallet → live ms of closed sessions earlier in the day (usedToday's answer). */
  readonly usedBefore = new Map<string, number>();
  readonly calls: { method: Method; args: unknown[] }[] = [];
  /** Methods that throw (the database is away) until removed. */
  readonly failing = new Set<Method>();
  private nextId = 1;

  constructor(
    readonly owner: string,
    private readonly clock: Clock,
  ) {}

  private call(method: Method, ...args: unknown[]): void {
    this.calls.push({ method, args });
    if (this.failing.has(method)) throw new Error(`database away (${method})`);
  }

  callsOf(method: Method): unknown[][] {
    return this.calls.filter((c) => c.method === method).map((c) => c.args);
  }

  private ownerDead(row: SessionRow): boolean {
    if (row.ownerInstance === null) return true;
    return !((this.leases.get(row.ownerInstance) ?? 0) > this.clock.now().getTime());
  }

  /** A row as another instance (or this one) left it. */
  seed(row: Partial<SessionRow> & Pick<SessionRow, 'wallet' | 'startedAt'>): SessionRow {
    const full: SessionRow = {
      id: this.nextId++,
      platform: 'demo',
      tierName: 'Bronze',
      rateUnitsPerHour: 0n,
      accruedUntil: row.startedAt,
      endedAt: null,
      minedUnits: 0n,
      endReason: null,
      ownerInstance: this.owner,
      ...row,
    };
    this.rows.set(full.id, full);
    return full;
  }

  async open(session: NewSession): Promise<number> {
    this.call('open', session);
    if ([...this.rows.values()].some((r) => r.wallet === session.wallet && !r.endedAt)) {
      throw new OpenSessionExists();
    }
    return this.seed({ ...session, accruedUntil: session.startedAt }).id;
  }

  async close(
    id: number,
    endedAt: Date,
    minedUnits: bigint,
    reason: string,
    owner: string | null = this.owner,
  ): Promise<bigint | null> {
    this.call('close', id, endedAt, minedUnits, reason, owner);
    const row = this.rows.get(id);
    if (!row || row.endedAt || row.ownerInstance !== owner) return null;
    Object.assign(row, { endedAt, accruedUntil: endedAt, minedUnits, endReason: reason });
    const pending = (this.pending.get(row.wallet) ?? 0n) + minedUnits;
    this.pending.set(row.wallet, pending);
    return pending;
  }

  async checkpoint(batch: readonly Checkpoint[]): Promise<number[]> {
    this.call(
      'checkpoint',
      batch.map((c) => ({ ...c })),
    );
    const lost: number[] = [];
    for (const c of batch) {
      const row = this.rows.get(c.id);
      if (!row || row.endedAt || row.ownerInstance !== this.owner) lost.push(c.id);
      else Object.assign(row, { accruedUntil: c.accruedUntil, minedUnits: c.minedUnits });
    }
    return lost;
  }

  async openSessions(): Promise<SessionRow[]> {
    this.call('openSessions');
    return [...this.rows.values()].filter((r) => !r.endedAt);
  }

  async openSessionOf(wallet: string) {
    this.call('openSessionOf', wallet);
    const row = [...this.rows.values()].find((r) => r.wallet === wallet && !r.endedAt);
    return row ? { id: row.id, ownerInstance: row.ownerInstance, ownerAlive: !this.ownerDead(row) } : null;
  }

  async hasOpen(wallet: string): Promise<boolean> {
    return (await this.openSessionOf(wallet)) !== null;
  }

  async adopt(wallets: readonly string[]): Promise<SessionRow[]> {
    this.call('adopt', [...wallets]);
    const taken = [...this.rows.values()].filter(
      (r) => !r.endedAt && wallets.includes(r.wallet) && this.ownerDead(r) && r.ownerInstance !== this.owner,
    );
    for (const r of taken) r.ownerInstance = this.owner;
    return taken.map((r) => ({ ...r }));
  }

  async releaseAll(): Promise<number> {
    this.call('releaseAll');
    const mine = [...this.rows.values()].filter((r) => r.ownerInstance === this.owner && !r.endedAt);
    for (const r of mine) r.ownerInstance = null;
    return mine.length;
  }

  async release(id: number): Promise<boolean> {
    this.call('release', id);
    const row = this.rows.get(id);
    if (!row || row.endedAt || row.ownerInstance !== this.owner) return false;
    row.ownerInstance = null;
    return true;
  }

  async orphans(graceMs: number) {
    this.call('orphans', graceMs);
    const before = this.clock.now().getTime() - graceMs;
    return [...this.rows.values()]
      .filter((r) => !r.endedAt && this.ownerDead(r) && r.ownerInstance !== this.owner)
      .filter((r) => {
        const lease = r.ownerInstance ? (this.leases.get(r.ownerInstance) ?? 0) : 0;
        return Math.max(r.accruedUntil.getTime(), lease) < before;
      })
      .map(({ id, ownerInstance, startedAt, accruedUntil, rateUnitsPerHour, wallet }) => ({
        id,
        ownerInstance,
        startedAt,
        accruedUntil,
        rateUnitsPerHour,
        wallet,
      }));
  }

  async usedToday(wallet: string, atMs: number, timezone: string): Promise<number> {
    this.call('usedToday', wallet, atMs, timezone);
    return this.usedBefore.get(wallet) ?? 0;
  }
}
