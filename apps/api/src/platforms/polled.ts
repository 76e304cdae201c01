// What the Twitch and TikTok adapters share: live detection by polling (poller.ts), one LivePoller per
// platform keyed by the platform's user id when verification recorded one, else by the normalised login.
import type { StreamPlatform } from '@strm/shared';
import type { Logger } from '../logger.ts';
import type { Metrics } from '../observability/metrics.ts';
import type { LiveStatus, PlatformAccountRef, PlatformAdapter } from './adapter.ts';
import { normaliseUsername } from './adapter.ts';
import { LivePoller } from './poller.ts';

/** The polling settings both adapters take from the configuration. */
export interface PollOptions {
  pollIntervalMs: number;
  /** Failed polls in a row after which a watched stream counts as offline (fail closed). */
  maxFailedPolls?: number;
  /** Failed live polls are counted here (strm_background_failures_total{loop="<platform> live poll"}). */
  metrics?: Metrics;
}

/** The key an account is polled and reported under. */
export function keyOf(account: PlatformAccountRef): string {
  return account.externalId ? `id:${account.externalId}` : `login:${normaliseUsername(account.username)}`;
}

export abstract class PolledPlatform implements PlatformAdapter {
  abstract readonly platform: StreamPlatform;
  protected readonly poller: LivePoller;
  /** Tells the other instances of an end a webhook stated (ends-shared.ts), when they share Redis. */
  private publishEnded: ((keys: string[]) => Promise<void>) | null = null;
  private readonly endsLogger: Logger;

  constructor(label: string, options: PollOptions, logger: Logger) {
    this.endsLogger = logger;
    this.poller = new LivePoller(
      label,
      options.pollIntervalMs,
      keyOf,
      (accounts) => this.statuses(accounts),
      logger,
      options.maxFailedPolls,
      options.metrics,
    );
  }

  abstract liveStatus(account: PlatformAccountRef): Promise<LiveStatus>;

  /** Statuses of the given accounts by keyOf; an account missing from the map is unknown this round. */
  protected abstract statuses(accounts: PlatformAccountRef[]): Promise<Map<string, LiveStatus>>;

  watch(account: PlatformAccountRef, onChange: (status: LiveStatus) => void): () => void {
    return this.poller.watch(account, onChange);
  }

  /** The other instances are told of ends through `publish` from now on. */
  shareEnds(publish: (keys: string[]) => Promise<void>): void {
    this.publishEnded = publish;
  }

  /** Another instance admitted a verified webhook saying the stream ended: reported here as a poll would. */
  reportEnded(keys: string[]): void {
    for (const key of keys) this.poller.report(key, { live: false, viewers: 0 });
  }

  /**
   * A verified webhook here said the stream ended: reported here at once, and told to every instance, since
   * the session may run on another (docs/platforms.md#webhooks). A failure to tell is logged: the others'
   * polls end their sessions within two polls.
   */
  protected async announceEnded(keys: string[]): Promise<void> {
    this.reportEnded(keys);
    try {
      await this.publishEnded?.(keys);
    } catch (err) {
      this.endsLogger.warn({ err }, 'an ended stream could not be told to the other instances');
    }
  }

  /** Checks every watched account now (tests; a push notification). */
  pollNow(): Promise<void> {
    return this.poller.poll();
  }

  stop(): void {
    this.poller.stop();
  }
}
