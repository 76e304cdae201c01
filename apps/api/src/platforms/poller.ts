// Live detection by polling: one timer per platform asks about every watched account at once (the adapter
// batches as its API allows) and reports changes. Ending a live stream needs evidence
// (docs/platforms.md#live-detection): two offline reads in a row, or an end the platform states outright
// (`ended`: YouTube's actualEndTime; a verified webhook goes through `report`). One offline read is not
// enough (Kick's batches answer a wrong is_live). An account missing from an answer, or a failed poll, is
// unknown: it fails closed, so an account with no live read `maxFailedPolls` polls in a row is reported
// offline (`unconfirmed` when no read said offline), and a session never mines on a stream nobody can
// confirm. A slow platform never stalls the engine (one poll at a time, each bounded by the HTTP deadline).
import type { Logger } from '../logger.ts';
import type { Metrics } from '../observability/metrics.ts';
import type { LiveStatus, PlatformAccountRef } from './adapter.ts';

type Listener = (status: LiveStatus) => void;

interface Watched {
  account: PlatformAccountRef;
  listeners: Set<Listener>;
  /** Last status reported (a watch starts from the status the engine just saw: live). */
  last: LiveStatus | null;
  /** Polls in a row that brought no status for this account (unknown). */
  failures: number;
  /** Polls in a row (unknown ones between them do not break the row) that read the account offline. */
  offlineReads: number;
}

/** Offline reads in a row that end a live stream (docs/platforms.md#live-detection). */
export const OFFLINE_READS_TO_END = 2;

export class LivePoller {
  private readonly watched = new Map<string, Watched>();
  private timer: NodeJS.Timeout | undefined;
  private polling = false;

  constructor(
    private readonly label: string,
    private readonly intervalMs: number,
    private readonly keyOf: (account: PlatformAccountRef) => string,
    /** Statuses of the given accounts by key; accounts missing from the map are unknown this round. */
    private readonly fetchStatuses: (accounts: PlatformAccountRef[]) => Promise<Map<string, LiveStatus>>,
    private readonly logger: Logger,
    /** Failed polls in a row after which an account is reported offline. */
    private readonly maxFailedPolls = 3,
    private readonly metrics?: Metrics,
  ) {}

  watch(account: PlatformAccountRef, onChange: Listener): () => void {
    const key = this.keyOf(account);
    let entry = this.watched.get(key);
    if (!entry) {
      entry = { account, listeners: new Set(), last: null, failures: 0, offlineReads: 0 };
      this.watched.set(key, entry);
    }
    entry.listeners.add(onChange);
    this.ensureTimer();
    return () => {
      const current = this.watched.get(key);
      if (!current) return;
      current.listeners.delete(onChange);
      if (!current.listeners.size) this.watched.delete(key);
      if (!this.watched.size) this.stopTimer();
    };
  }

  private ensureTimer() {
    if (this.timer) return;
    this.timer = setInterval(() => {
      this.poll().catch((err: unknown) => this.logger.error({ err }, `${this.label} live poll failed`));
    }, this.intervalMs);
    this.timer.unref();
  }

  private stopTimer() {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  /** One round (exposed for tests and for a push notification that asks for an immediate check). */
  async poll(): Promise<void> {
    if (this.polling || !this.watched.size) return;
    this.polling = true;
    try {
      const entries = [...this.watched.entries()];
      let statuses: Map<string, LiveStatus>;
      try {
        statuses = await this.fetchStatuses(entries.map(([, w]) => w.account));
        this.metrics?.backgroundFailing.set({ loop: `${this.label} live poll` }, 0);
      } catch (err) {
        this.logger.warn({ err, watched: entries.length }, `${this.label} live poll failed`);
        this.metrics?.backgroundFailures.inc({ loop: `${this.label} live poll` });
        this.metrics?.backgroundFailing.set({ loop: `${this.label} live poll` }, 1);
        statuses = new Map();
      }
      for (const [key, entry] of entries) {
        if (this.watched.get(key) !== entry) continue;
        const read = statuses.get(key);
        let status: LiveStatus;
        if (read?.live) {
          entry.failures = 0;
          entry.offlineReads = 0;
          status = { live: true, viewers: read.viewers };
        } else if (read?.ended || entry.last?.live === false) {
          // Stated by the platform, or already reported offline (a stream that has not come back).
          entry.failures = 0;
          status = { live: false, viewers: 0 };
        } else {
          if (read) entry.offlineReads++;
          else entry.failures++;
          const noLiveRead = entry.failures + entry.offlineReads;
          if (entry.offlineReads >= OFFLINE_READS_TO_END) {
            status = { live: false, viewers: 0 };
          } else if (noLiveRead >= this.maxFailedPolls) {
            this.logger.warn(
              { failures: entry.failures, offlineReads: entry.offlineReads },
              `${this.label} could not confirm a stream ${noLiveRead} polls in a row; reported offline`,
            );
            status = entry.offlineReads
              ? { live: false, viewers: 0 }
              : { live: false, viewers: 0, unconfirmed: true };
          } else {
            continue;
          }
        }
        const changed = entry.last === null ? !status.live : entry.last.live !== status.live;
        entry.last = status;
        if (!changed) continue;
        entry.offlineReads = 0;
        entry.failures = 0;
        this.notify(entry, status);
      }
    } finally {
      this.polling = false;
    }
  }

  /** Whether an account is watched (a live session polls it). */
  watching(key: string): boolean {
    return this.watched.has(key);
  }

  /** A change the platform pushed (a webhook): reported at once, as a poll would. */
  report(key: string, status: LiveStatus): void {
    const entry = this.watched.get(key);
    if (!entry || entry.last?.live === status.live) return;
    entry.last = status;
    entry.failures = 0;
    entry.offlineReads = 0;
    this.notify(entry, status);
  }

  private notify(entry: Watched, status: LiveStatus): void {
    for (const listener of [...entry.listeners]) {
      try {
        listener(status);
      } catch (err) {
        this.logger.error({ err }, `${this.label} live listener failed`);
      }
    }
  }

  stop() {
    this.stopTimer();
    this.watched.clear();
  }
}
