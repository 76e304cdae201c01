// REST rate limits per client address (Express's `trust proxy` says which address that is; IPv6 addresses
// grouped by /56, as one subscriber's). With REDIS_URL the counts live in Redis, so N instances behind a load
// balancer allow what one would, not N times it; while Redis is away each instance counts in memory instead
// (at worst N times the limit for a while, never none).
import { SERVER_MESSAGES } from '@strm/shared';
import {
  type ClientRateLimitInfo,
  ipKeyGenerator,
  MemoryStore,
  type Options,
  rateLimit,
  type Store,
} from 'express-rate-limit';
import { Redis } from 'ioredis';
import { RedisStore } from 'rate-limit-redis';
import type { Logger } from '../logger.ts';

/** Makes the store of one limiter (`name` keeps the limiters' counts apart). */
export type RateLimitStores = (name: string) => Store | undefined;

export const memoryStores: RateLimitStores = () => undefined;

/** The prefix length IPv6 addresses are grouped by (a subscriber's block), for REST and socket limits alike. */
export const IPV6_SUBNET = 56;

/** The key a client address is counted under: the address, or its /56 for IPv6. */
export const addressKey = (address: string) => ipKeyGenerator(address, IPV6_SUBNET);

/**
 * A shared (Redis) store that counts in this instance's memory while it cannot be reached, instead of
 * letting every request through: a Redis outage must not be the moment the limits vanish.
 */
export class FailSafeStore implements Store {
  readonly localKeys = false;
  private readonly local = new MemoryStore();
  /** Redis is not answering: said once when it stops and once when it is back, not once per request. */
  private failing = false;

  constructor(
    private readonly shared: Store,
    private readonly logger: Logger,
    readonly prefix?: string,
  ) {}

  init(options: Options): void {
    this.shared.init?.(options);
    this.local.init(options);
  }

  async increment(key: string): Promise<ClientRateLimitInfo> {
    try {
      const counted = await this.shared.increment(key);
      if (this.failing) {
        this.failing = false;
        this.logger.info('rate limit: Redis answers again; counting there');
      }
      return counted;
    } catch (err) {
      if (!this.failing) {
        this.failing = true;
        this.logger.warn({ err: (err as Error).message }, 'rate limit: Redis unreachable; counting here');
      }
      return this.local.increment(key);
    }
  }

  async decrement(key: string): Promise<void> {
    await Promise.allSettled([this.shared.decrement(key), this.local.decrement(key)]);
  }

  async resetKey(key: string): Promise<void> {
    await Promise.allSettled([this.shared.resetKey(key), this.local.resetKey(key)]);
  }
}

/**
 * Stores in Redis under `strm:rl:<cluster>:<name>:`: `cluster` names the instances that share one
 * database (two deployments on one Redis keep their own counts).
 */
export function redisStores(
  url: string,
  cluster: string,
  logger: Logger,
): { stores: RateLimitStores; client: Redis; close(): Promise<void> } {
  const redis = new Redis(url, {
    // A request waits at most this long on Redis before it is let through.
    commandTimeout: 1000,
    maxRetriesPerRequest: 1,
    connectionName: `strm-api:${cluster}:rate-limits`,
  });
  redis.on('error', (err: Error) => logger.warn({ err: err.message }, 'rate-limit redis connection error'));
  return {
    client: redis,
    stores: (name) => {
      const store = new RedisStore({
        sendCommand: (command: string, ...args: string[]) => redis.call(command, ...args) as Promise<never>,
        prefix: `strm:rl:${cluster}:${name}:`,
      });
      // The scripts load at once; a failure there is retried by the store at its first use.
      const loading = store as unknown as {
        incrementScriptSha: Promise<string>;
        getScriptSha: Promise<string>;
      };
      loading.incrementScriptSha.catch(() => {});
      loading.getScriptSha.catch(() => {});
      return new FailSafeStore(store, logger, `strm:rl:${cluster}:${name}:`);
    },
    async close() {
      await redis.quit().catch(() => redis.disconnect());
    },
  };
}

function limiter(name: string, stores: RateLimitStores, limit: number, message: string) {
  return rateLimit({
    windowMs: 60_000,
    limit,
    standardHeaders: 'draft-8',
    legacyHeaders: false,
    message: { error: 'rate_limited', message },
    store: stores(name),
    ipv6Subnet: IPV6_SUBNET,
    // The shared store falls back to memory itself (FailSafeStore): an error left here is a bug, refused.
    passOnStoreError: false,
  });
}

/** Every API request, per client address. */
export const apiRateLimit = (perMinute: number, stores: RateLimitStores = memoryStores) =>
  limiter('api', stores, perMinute, SERVER_MESSAGES.tooManyRequests);

/** The public pages (a card, the overlay page), per client address, in a count of their own. */
export const pageRateLimit = (perMinute: number, stores: RateLimitStores = memoryStores) =>
  limiter('pages', stores, perMinute, SERVER_MESSAGES.tooManyRequests);

/** Signing in is stricter: a few attempts per minute per client address. */
export const authRateLimit = (name: string, perMinute: number, stores: RateLimitStores = memoryStores) =>
  limiter(name, stores, perMinute, 'Too many sign-in attempts, please wait a minute');
