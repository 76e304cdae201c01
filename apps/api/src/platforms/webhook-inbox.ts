// Where the platforms' webhooks (Twitch's EventSub, Kick's events) are admitted once their signature holds: a
// message older than the replay window is acknowledged and ignored (a platform counts refused deliveries
// toward dropping the subscription), and a message id seen before is ignored, across every instance when they
// share Redis (a platform may deliver a message twice, to any instance). docs/platforms.md#webhooks
import type { Redis } from 'ioredis';
import type { Logger } from '../logger.ts';

/** What a webhook route answers (text/plain when `text` is set: Twitch's verification challenge). */
export interface WebhookAnswer {
  status: number;
  text?: string;
}

/** A webhook message's four headers (`<prefix>-message-id` and the rest); undefined when one is missing. */
export function webhookHeaders(
  headers: Record<string, string | string[] | undefined>,
  names: { id: string; timestamp: string; signature: string; type: string },
): { id: string; timestamp: string; signature: string; type: string } | undefined {
  const header = (name: string) => {
    const v = headers[name];
    return Array.isArray(v) ? v[0] : v;
  };
  const id = header(names.id);
  const timestamp = header(names.timestamp);
  const signature = header(names.signature);
  const type = header(names.type);
  return id && timestamp && signature && type ? { id, timestamp, signature, type } : undefined;
}

/** What to do with a validly signed message. */
export type Admission = 'new' | 'repeat' | 'stale' | 'bad_timestamp';

interface Seen {
  /** True the first time `key` is given within `ttlMs`. */
  firstTime(key: string, ttlMs: number): Promise<boolean>;
}

/** This instance's memory: the ids of the last window, forgotten as they age out of it. */
class SeenHere implements Seen {
  private readonly ids = new Map<string, number>();

  async firstTime(key: string, ttlMs: number): Promise<boolean> {
    const now = Date.now();
    for (const [id, until] of this.ids) {
      if (until > now) break; // insertion order is expiry order: the rest are younger
      this.ids.delete(id);
    }
    if (this.ids.has(key)) return false;
    this.ids.set(key, now + ttlMs);
    return true;
  }
}

/** Redis's SET NX PX: one instance of all of them is first; this instance's memory while Redis is away. */
class SeenInRedis implements Seen {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    private readonly fallback: Seen,
    private readonly logger: Logger,
  ) {}

  async firstTime(key: string, ttlMs: number): Promise<boolean> {
    try {
      return (await this.redis.set(`${this.prefix}${key}`, '1', 'PX', ttlMs, 'NX')) === 'OK';
    } catch (err) {
      this.logger.warn(
        { err: (err as Error).message },
        'webhook inbox: Redis unreachable; de-duplicating here',
      );
      return this.fallback.firstTime(key, ttlMs);
    }
  }
}

export class WebhookInbox {
  private readonly here = new SeenHere();
  private seen: Seen = this.here;

  constructor(
    private readonly logger: Logger,
    private readonly now: () => number = Date.now,
  ) {}

  /** De-duplicates through Redis from now on (the instances on one database share `prefix`). */
  share(redis: Redis, prefix: string): void {
    this.seen = new SeenInRedis(redis, prefix, this.here, this.logger);
  }

  /**
   * Whether a validly signed message of `source` with this id and timestamp is new, seen before, or older
   * than `maxAgeMs` (then acknowledged and ignored; a replayed message changes nothing).
   */
  async admit(source: string, id: string, timestamp: string, maxAgeMs: number): Promise<Admission> {
    const at = Date.parse(timestamp);
    if (Number.isNaN(at)) return 'bad_timestamp';
    if (Math.abs(this.now() - at) > maxAgeMs) return 'stale';
    // Remembered for twice the window: a repeat is refused as stale after it anyway.
    return (await this.seen.firstTime(`${source}:${id}`, 2 * maxAgeMs)) ? 'new' : 'repeat';
  }
}
