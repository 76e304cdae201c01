// Who may use the product: a wallet with beta access, or an admin (docs/product.md#roles). Asked at every
// Socket.IO handshake (thousands at once after a restart), for the platform and mining routes, and again,
// from the database, before a session starts or rewards are paid. Answers are kept for a while in memory; a
// grant, revoke, promotion or demotion announces itself on ACCESS_CHANNEL (services/beta-access.ts,
// admins.ts: whether the API or the CLI made it), and every instance forgets that wallet's answer at once.
import { SERVER_MESSAGES } from '@strm/shared';
import type { Config } from '../config.ts';
import type { PrismaClient } from '../db/index.ts';
import { DomainError } from '../errors.ts';
import type { Logger } from '../logger.ts';

/** PostgreSQL NOTIFY channel: the payload is a wallet whose access may have changed. */
export const ACCESS_CHANNEL = 'strm_access';

/** A kept "allowed" answer is used this long at most (a missed notification is corrected by then). */
const ALLOWED_TTL_MS = 30_000;
/** A kept refusal: short, so a grant whose notification was missed shows soon. */
const REFUSED_TTL_MS = 5_000;
/** Wallets per lookup query (PostgreSQL takes at most 65,535 parameters). */
const LOOKUP_CHUNK = 10_000;
/** Answers kept at most (the oldest go first). */
const MAX_ENTRIES = 100_000;

export interface AccessDeps {
  config: Pick<Config, 'adminWallets'>;
  prisma: PrismaClient;
  logger: Logger;
}

/** The 403 every refusal carries (REST: the body; sockets: connect_error's data). */
export function accessRequired(): DomainError {
  return new DomainError('beta_access_required', SERVER_MESSAGES.betaAccessRequired);
}

export class AccessControl {
  private readonly known = new Map<string, { allowed: boolean; until: number }>();
  /** Wallets asked in this turn of the event loop: looked up together in one query per table. */
  private batch: Map<string, Array<(allowed: boolean) => void>> | undefined;
  private batchFailed: Array<(err: unknown) => void> = [];
  /** Changes seen (forget), counted; and each wallet's count at its last change, while lookups are in flight. */
  private changes = 0;
  private readonly changedAt = new Map<string, number>();
  private lookUpsInFlight = 0;
  private readonly changeListeners = new Set<(wallet: string) => void>();
  private readonly revokeHandlers = new Set<(wallet: string) => Promise<void>>();

  constructor(private readonly deps: AccessDeps) {}

  /**
   * Told of every change of a wallet's access seen by this instance (its own and, through ACCESS_CHANNEL,
   * every other's and the CLI's), after the kept answer is forgotten: what else keeps something per wallet
   * (the public card's memory, the overlays connected here) asks again.
   */
  onChange(listener: (wallet: string) => void): () => void {
    this.changeListeners.add(listener);
    return () => this.changeListeners.delete(listener);
  }

  /**
   * Ends a wallet's access wherever it is used when an admin's change here leaves it without access: its
   * live session and its sockets, on every instance (socket/access.ts registers it once the sockets exist).
   */
  onRevoked(handler: (wallet: string) => Promise<void>): () => void {
    this.revokeHandlers.add(handler);
    return () => this.revokeHandlers.delete(handler);
  }

  /** Whether `wallet` may use the product, from memory when known (the handshake's check). */
  allowed(wallet: string): Promise<boolean> {
    if (this.deps.config.adminWallets.has(wallet)) return Promise.resolve(true);
    const kept = this.known.get(wallet);
    if (kept && kept.until > performance.now()) return Promise.resolve(kept.allowed);
    return this.lookUpSoon(wallet);
  }

  /**
   * Whether `wallet` may use the product now, from the database (before a session starts or a payout).
   * Batched like `allowed`, so a wave of stream starts costs a query per turn of the event loop.
   */
  allowedNow(wallet: string): Promise<boolean> {
    if (this.deps.config.adminWallets.has(wallet)) return Promise.resolve(true);
    return this.lookUpSoon(wallet);
  }

  private lookUpSoon(wallet: string): Promise<boolean> {
    return new Promise((resolve, reject) => {
      if (!this.batch) {
        this.batch = new Map();
        setImmediate(() => this.lookUpBatch());
      }
      const waiting = this.batch.get(wallet) ?? [];
      waiting.push(resolve);
      this.batch.set(wallet, waiting);
      this.batchFailed.push(reject);
    });
  }

  /** Throws the 403 unless the wallet may use the product (from memory when known). */
  async require(wallet: string): Promise<void> {
    if (!(await this.allowed(wallet))) throw accessRequired();
  }

  /**
   * Forgets what was kept about `wallet` (its access changed). A lookup of it already in flight may have read
   * the database before the change: its answer is neither kept nor given, the wallet is asked again.
   */
  forget(wallet: string): void {
    this.known.delete(wallet);
    if (this.lookUpsInFlight > 0) this.changedAt.set(wallet, ++this.changes);
    for (const listener of this.changeListeners) {
      try {
        listener(wallet);
      } catch (err) {
        this.deps.logger.error({ err, wallet }, 'access change listener failed');
      }
    }
  }

  /**
   * After a change to `wallet`'s access made here: forgets the kept answer and, when the wallet has no
   * access left (an admin keeps it), ends its session and sockets on every instance.
   */
  async changed(wallet: string): Promise<void> {
    this.forget(wallet);
    if (await this.allowedNow(wallet)) return;
    // The change is made: a session owner that does not answer now still hears the notification.
    for (const handler of this.revokeHandlers) {
      await handler(wallet).catch((err: unknown) => {
        this.deps.logger.warn({ err, wallet }, 'ending the access of a wallet failed here');
      });
    }
  }

  private lookUpBatch(): void {
    const batch = this.batch;
    const failed = this.batchFailed;
    this.batch = undefined;
    this.batchFailed = [];
    if (!batch) return;
    const rejectAll = (err: unknown) => {
      for (const reject of failed) reject(err);
    };
    this.lookUp([...batch.keys()]).then(({ found, stale }) => {
      for (const [wallet, waiting] of batch) {
        // Its access changed during the lookup (a revoke as a handshake was checked): asked again, since the
        // answer read may be the one from before the change.
        const answer = stale.has(wallet) ? this.lookUpSoon(wallet) : Promise.resolve(found.has(wallet));
        answer.then((allowed) => {
          for (const resolve of waiting) resolve(allowed);
        }, rejectAll);
      }
    }, rejectAll);
  }

  /**
   * The wallets among `wallets` that have beta access or are promoted admins, remembered; and those whose
   * access changed while they were looked up (`stale`: not remembered, their answer may predate the change).
   */
  private async lookUp(wallets: string[]): Promise<{ found: Set<string>; stale: Set<string> }> {
    const since = this.changes;
    this.lookUpsInFlight++;
    try {
      const found = await this.read(wallets);
      const stale = new Set(wallets.filter((wallet) => (this.changedAt.get(wallet) ?? 0) > since));
      this.remember(
        wallets.filter((wallet) => !stale.has(wallet)),
        found,
      );
      return { found, stale };
    } finally {
      if (--this.lookUpsInFlight === 0) this.changedAt.clear();
    }
  }

  private async read(wallets: string[]): Promise<Set<string>> {
    const found = new Set<string>();
    for (let i = 0; i < wallets.length; i += LOOKUP_CHUNK) {
      const chunk = wallets.slice(i, i + LOOKUP_CHUNK);
      const [granted, admins] = await Promise.all([
        this.deps.prisma.betaAccess.findMany({ where: { wallet: { in: chunk } }, select: { wallet: true } }),
        this.deps.prisma.admin.findMany({ where: { wallet: { in: chunk } }, select: { wallet: true } }),
      ]);
      for (const row of [...granted, ...admins]) found.add(row.wallet);
    }
    return found;
  }

  private remember(wallets: string[], found: Set<string>): void {
    const now = performance.now();
    for (const wallet of wallets) {
      const allowed = found.has(wallet);
      this.known.delete(wallet);
      this.known.set(wallet, { allowed, until: now + (allowed ? ALLOWED_TTL_MS : REFUSED_TTL_MS) });
    }
    while (this.known.size > MAX_ENTRIES) {
      const oldest = this.known.keys().next().value;
      if (oldest === undefined) break;
      this.known.delete(oldest);
    }
  }
}
