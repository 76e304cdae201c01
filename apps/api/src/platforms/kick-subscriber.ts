// What Kick's adapter does with its event subscriptions (docs/platforms-youtube-kick.md#kick-subscriptions):
// made when a session starts watching a channel (unless the shared row or Kick's own list has one), deleted
// when no session on any instance needs it, and checked against Kick's list every few polls by one instance
// at a time. Every change of a broadcaster's subscription happens under its row's lock (kick-subscriptions.ts).
import type { Logger } from '../logger.ts';
import {
  createKickSubscription,
  deleteKickSubscriptions,
  KICK_STATUS_EVENT,
  KICK_STATUS_EVENT_VERSION,
  type KickEventsApi,
  type KickSubscriptionRow,
  type KickSubscriptionStore,
  listKickSubscriptions,
} from './kick-subscriptions.ts';

const rowOf = (broadcasterId: string, subscriptionId: string): KickSubscriptionRow => ({
  broadcasterId,
  subscriptionId,
  event: KICK_STATUS_EVENT,
  version: KICK_STATUS_EVENT_VERSION,
});

export class KickSubscriber {
  /** Per broadcaster: the subscription being checked or made here (one at a time). */
  private readonly subscribing = new Map<string, Promise<void>>();
  /** Deletions and checks in flight (awaited by `settled`). */
  private readonly pending = new Set<Promise<unknown>>();

  constructor(
    private readonly api: KickEventsApi,
    private readonly store: KickSubscriptionStore,
    /** Whether a session on this instance watches the broadcaster's channel. */
    private readonly watchedHere: (broadcasterId: string) => boolean,
    private readonly logger: Logger,
  ) {}

  /**
   * Makes sure Kick sends the broadcaster's status events: kept in `subscribing` until settled (failures are
   * logged: polling continues).
   */
  subscribe(broadcasterId: string): void {
    this.ensure(broadcasterId);
  }

  private ensure(broadcasterId: string): Promise<void> {
    let inFlight = this.subscribing.get(broadcasterId);
    if (!inFlight) {
      inFlight = this.make(broadcasterId)
        .catch((err: unknown) =>
          this.logger.warn({ err, broadcasterId }, 'Kick event subscription failed; polling continues'),
        )
        .finally(() => this.subscribing.delete(broadcasterId));
      this.subscribing.set(broadcasterId, inFlight);
    }
    return inFlight;
  }

  /** A session here stopped watching: the subscription goes once no session anywhere needs it. */
  release(broadcasterId: string): void {
    this.track(
      this.unsubscribe(broadcasterId).catch((err: unknown) =>
        this.logger.warn({ err, broadcasterId }, 'Kick event unsubscription failed'),
      ),
    );
  }

  /** Kick's list against the rows, by one instance at a time (another's check makes this one a no-op). */
  check(watched: string[]): Promise<boolean> {
    const run = this.store.asChecker(() => this.reconcile(watched));
    this.track(run.catch(() => false));
    return run;
  }

  /** Resolves once every subscription being made, deleted or checked here is. */
  async settled(): Promise<void> {
    while (this.subscribing.size || this.pending.size) {
      await Promise.allSettled([...this.subscribing.values(), ...this.pending]);
    }
  }

  private track(p: Promise<unknown>): void {
    const done = p.finally(() => this.pending.delete(done));
    this.pending.add(done);
  }

  private make(broadcasterId: string): Promise<void> {
    return this.store.exclusive(broadcasterId, async (row, save) => {
      if (row) return;
      // Listed first: another instance, or an earlier run, may have made it (a repeated POST duplicates).
      const listed = (await listKickSubscriptions(this.api, broadcasterId)).get(broadcasterId) ?? [];
      if (listed[0]) {
        await save(rowOf(broadcasterId, listed[0]));
        await deleteKickSubscriptions(this.api, listed.slice(1));
        return;
      }
      const made = await createKickSubscription(this.api, broadcasterId);
      if (made) await save(rowOf(broadcasterId, made));
    });
  }

  private async needed(broadcasterId: string): Promise<boolean> {
    return this.watchedHere(broadcasterId) || (await this.store.neededElsewhere(broadcasterId));
  }

  private async unsubscribe(broadcasterId: string): Promise<void> {
    await this.subscribing.get(broadcasterId);
    if (this.watchedHere(broadcasterId)) return;
    await this.store.exclusive(broadcasterId, async (row, save) => {
      if (await this.needed(broadcasterId)) return;
      const listed = (await listKickSubscriptions(this.api, broadcasterId)).get(broadcasterId) ?? [];
      await deleteKickSubscriptions(this.api, [
        ...new Set([...listed, ...(row ? [row.subscriptionId] : [])]),
      ]);
      await save(null);
    });
  }

  private async reconcile(watched: string[]): Promise<void> {
    const listed = await listKickSubscriptions(this.api);
    const all = new Set([...(await this.store.broadcasters()), ...watched, ...listed.keys()]);
    for (const broadcasterId of all) {
      await this.store.exclusive(broadcasterId, async (row, save) => {
        let atKick = listed.get(broadcasterId) ?? [];
        // Read again under the lock when the row disagrees: another instance may have just made it.
        if (row && !atKick.includes(row.subscriptionId)) {
          atKick = (await listKickSubscriptions(this.api, broadcasterId)).get(broadcasterId) ?? [];
        }
        if (!(await this.needed(broadcasterId))) {
          await deleteKickSubscriptions(this.api, [
            ...new Set([...atKick, ...(row ? [row.subscriptionId] : [])]),
          ]);
          if (row) await save(null);
          return;
        }
        const kept = row && atKick.includes(row.subscriptionId) ? row.subscriptionId : atKick[0];
        if (kept) {
          if (kept !== row?.subscriptionId) await save(rowOf(broadcasterId, kept));
          await deleteKickSubscriptions(
            this.api,
            atKick.filter((id) => id !== kept),
          );
          return;
        }
        // Kick dropped it (a day of failed deliveries): made again.
        this.logger.warn({ broadcasterId }, 'Kick dropped an event subscription; made again');
        const made = await createKickSubscription(this.api, broadcasterId);
        await save(made ? rowOf(broadcasterId, made) : null);
      });
    }
  }
}
