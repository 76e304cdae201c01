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

  constructor(label: string, options: PollOptions, logger: Logger) {
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

  /** Checks every watched account now (tests; a push notification). */
  pollNow(): Promise<void> {
    return this.poller.poll();
  }

  stop(): void {
    this.poller.stop();
  }
}
