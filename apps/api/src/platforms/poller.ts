// Live detection by polling: one timer per platform asks about every watched account at once (the adapter
// batches as its API allows) and reports changes. A failed poll is logged and changes nothing: a session
// is never ended because the platform could not be asked, and a slow platform never stalls the engine
// (one poll at a time, each bounded by the HTTP deadline).
import type { Logger } from '../logger.ts';
import type { LiveStatus, PlatformAccountRef } from './adapter.ts';

type Listener = (status: LiveStatus) => void;

interface Watched {
  account: PlatformAccountRef;
  listeners: Set<Listener>;
  /** Last status reported (a watch starts from the status the engine just saw: live). */
  last: LiveStatus | null;
}

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
  ) {}

  watch(account: PlatformAccountRef, onChange: Listener): () => void {
    const key = this.keyOf(account);
    let entry = this.watched.get(key);
    if (!entry) {
      entry = { account, listeners: new Set(), last: null };
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
    this.timer = setInterval(() => void this.poll(), this.intervalMs);
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
      } catch (err) {
        this.logger.warn({ err, watched: entries.length }, `${this.label} live poll failed; sessions kept`);
        return;
      }
      for (const [key, entry] of entries) {
        const status = statuses.get(key);
        if (!status || this.watched.get(key) !== entry) continue;
        const changed = entry.last === null ? !status.live : entry.last.live !== status.live;
        entry.last = status;
        if (!changed) continue;
        for (const listener of [...entry.listeners]) {
          try {
            listener(status);
          } catch (err) {
            this.logger.error({ err }, `${this.label} live listener failed`);
          }
        }
      }
    } finally {
      this.polling = false;
    }
  }

  /** A change the platform pushed (a webhook): reported at once, as a poll would. */
  report(key: string, status: LiveStatus): void {
    const entry = this.watched.get(key);
    if (!entry || entry.last?.live === status.live) return;
    entry.last = status;
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
