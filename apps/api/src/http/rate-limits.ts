// REST rate limits per client address (Express's `trust proxy` says which address that is). With REDIS_URL
// the counts live in Redis, so N instances behind a load balancer allow what one would, not N times it;
// while Redis is away a request is let through (logged) rather than refused.
import { SERVER_MESSAGES } from '@strm/shared';
import { rateLimit, type Store } from 'express-rate-limit';
import { Redis } from 'ioredis';
import { RedisStore } from 'rate-limit-redis';
import type { Logger } from '../logger.ts';

/** Makes the store of one limiter (`name` keeps the limiters' counts apart). */
export type RateLimitStores = (name: string) => Store | undefined;

export const memoryStores: RateLimitStores = () => undefined;

/**
 * Stores in Redis under `strm:rl:<cluster>:<name>:`: `cluster` names the instances that share one
 * database (two deployments on one Redis keep their own counts).
 */
export function redisStores(
  url: string,
  cluster: string,
  logger: Logger,
): { stores: RateLimitStores; close(): Promise<void> } {
  const redis = new Redis(url, {
    // A request waits at most this long on Redis before it is let through.
    commandTimeout: 1000,
    maxRetriesPerRequest: 1,
    connectionName: `strm-api:${cluster}:rate-limits`,
  });
  redis.on('error', (err: Error) => logger.warn({ err: err.message }, 'rate-limit redis connection error'));
  return {
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
      return store;
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
    passOnStoreError: true,
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
