// Several API instances behind a load balancer: Socket.IO's Redis adapter relays room broadcasts
// (io.to(room).emit: a wallet's events) and server-to-server requests (fetchSockets) through Redis, so a
// client receives them whichever instance holds its socket. The sharded adapter over Redis 7's sharded
// Pub/Sub, with a channel per room subscribed only by the instances that have sockets in it: an instance
// receives the events of its own clients, not every instance's, so adding instances adds capacity.
import { createShardedAdapter } from '@socket.io/redis-adapter';
import { Redis } from 'ioredis';
import type { Server } from 'socket.io';
import type { Logger } from '../logger.ts';

export interface RedisAdapter {
  ping(): Promise<void>;
  close(): Promise<void>;
}

/**
 * `cluster` names the instances that belong together (they share one database), so two deployments, or two
 * test runs, on one Redis never hear each other.
 */
export async function attachRedisAdapter(
  io: Server,
  url: string,
  cluster: string,
  logger: Logger,
): Promise<RedisAdapter> {
  const options = { lazyConnect: true, maxRetriesPerRequest: 3 };
  // Auto-pipelining: the publishes of one tick (a mining tick emits thousands) leave in one write, not a
  // system call each.
  const pub = new Redis(url, {
    ...options,
    enableAutoPipelining: true,
    connectionName: `strm-api:${cluster}`,
  });
  // No ready check on the subscriber: its INFO is refused once a subscription is on the way, the failed check
  // drops the connection again and flushes the subscriptions queued meanwhile.
  const sub = new Redis(url, {
    ...options,
    enableReadyCheck: false,
    connectionName: `strm-api:${cluster}:sub`,
  });
  keepSubscribing(sub, logger);
  for (const client of [pub, sub]) {
    // ioredis reconnects by itself; say so once per failure instead of crashing on an unhandled error.
    client.on('error', (err: Error) => logger.warn({ err: err.message }, 'redis connection error'));
  }
  try {
    await Promise.all([pub.connect(), sub.connect()]);
  } catch (err) {
    pub.disconnect();
    sub.disconnect();
    throw new Error(`cannot reach Redis at REDIS_URL: ${err instanceof Error ? err.message : String(err)}`);
  }
  io.adapter(
    createShardedAdapter(pub, sub, {
      channelPrefix: `strm.socket.io#${cluster}`,
      subscriptionMode: 'dynamic',
    }),
  );
  return {
    async ping() {
      await pub.ping();
    },
    async close() {
      await Promise.allSettled([pub.quit(), sub.quit()]);
    },
  };
}

/**
 * The adapter subscribes and unsubscribes a channel per room without handling the answer. While the
 * subscriber connection is down (Redis closes a subscriber that falls behind its output buffer limit, and
 * networks fail) those calls are refused, and an unhandled rejection ends the process: here they are logged
 * instead, and the channels that could not be subscribed are subscribed again once the connection is back
 * (ioredis itself subscribes again to those it holds).
 */
function keepSubscribing(sub: Redis, logger: Logger): void {
  const missed = new Set<string>();
  const ssubscribe = sub.ssubscribe.bind(sub) as (...channels: string[]) => Promise<unknown>;
  const sunsubscribe = sub.sunsubscribe.bind(sub) as (...channels: string[]) => Promise<unknown>;
  const refused = (what: string, channels: string[]) => (err: Error) => {
    if (what === 'subscribe') for (const c of channels) missed.add(c);
    logger.warn({ err: err.message, channels: channels.length }, `redis ${what} refused`);
  };
  Object.assign(sub, {
    ssubscribe(...channels: string[]) {
      for (const c of channels) missed.delete(c);
      const answer = ssubscribe(...channels);
      answer.catch(refused('subscribe', channels));
      return answer;
    },
    sunsubscribe(...channels: string[]) {
      for (const c of channels) missed.delete(c);
      const answer = sunsubscribe(...channels);
      answer.catch(refused('unsubscribe', channels));
      return answer;
    },
  });
  sub.on('ready', () => {
    if (missed.size) void (sub.ssubscribe as (...c: string[]) => Promise<unknown>)(...missed);
  });
}
