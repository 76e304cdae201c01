// Several API instances behind a load balancer: Socket.IO's Redis adapter relays room broadcasts
// (io.to(room).emit: a wallet's events) and server-to-server requests (fetchSockets) through Redis, so a
// client receives them whichever instance holds its socket. The sharded adapter over Redis 7's sharded
// Pub/Sub, with a channel per room subscribed only by the instances that have sockets in it: an instance
// receives the events of its own clients, not every instance's, so adding instances adds capacity.
// A room whose sockets are all on this instance can skip Redis altogether: `allHere` says so, from Redis's own
// count of the room channel's subscribers (see RoomPresence).
import { performance } from 'node:perf_hooks';
import { createShardedAdapter } from '@socket.io/redis-adapter';
import { Redis } from 'ioredis';
import type { Namespace, Server } from 'socket.io';
import type { Logger } from '../logger.ts';

/**
 * A lookup's answer is used for this long at most. The engine sends a wallet an update every interval and
 * each update asks for a new lookup, so in steady state the answer used is one interval old; this bounds it
 * when updates pause (a grace period, a slow Redis).
 */
const PRESENCE_MAX_AGE_MS = 10_000;
/** Channels per PUBSUB SHARDNUMSUB command. */
const LOOKUP_BATCH = 1000;

type Adapter = Namespace['adapter'];
const presences = new WeakMap<Adapter, RoomPresence>();

/**
 * The sockets of `room` on this instance when they are all of its sockets (`allHere`); undefined when a
 * broadcast must go through the adapter.
 */
export function socketsIfOnlyHere(io: Server, room: string): ReadonlySet<string> | undefined {
  if (!allHere(io, room)) return undefined;
  return io.sockets.adapter.rooms.get(room) ?? new Set();
}

/**
 * Whether every socket in `room` is on this instance, so a broadcast to it can go to them directly instead of
 * through Redis: always with no Redis adapter (one instance); with one, as of a lookup at most
 * PRESENCE_MAX_AGE_MS old, and false when unknown (no lookup yet, a subscription in flight) or when the room
 * has no socket here.
 */
export function allHere(io: Server, room: string): boolean {
  return presences.get(io.sockets.adapter)?.onlyHere(room) ?? true;
}

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
    // While Redis is away a publish fails at once instead of waiting in a queue: the adapter then delivers
    // to this instance's own sockets without delay (other instances' miss it until Redis is back).
    enableOfflineQueue: false,
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
  const subscriptions = keepSubscribing(sub, logger);
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
  const channelPrefix = `strm.socket.io#${cluster}`;
  io.adapter(createShardedAdapter(pub, sub, { channelPrefix, subscriptionMode: 'dynamic' }));
  // The adapter's own name for a room's channel (its `dynamicChannel`, private): prefix#namespace#room#.
  const presence = new RoomPresence(
    io.sockets.adapter,
    pub,
    subscriptions,
    (room) => `${channelPrefix}#/#${room}#`,
    logger,
  );
  presences.set(io.sockets.adapter, presence);
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
 * Where a room's sockets are, from Redis: with the dynamic subscription mode an instance subscribes to a
 * room's channel exactly while it has sockets in the room, so a channel with one subscriber, this instance's
 * (confirmed before the lookup was sent), has no socket elsewhere. Each `onlyHere` asks for a new lookup of
 * its room, batched per turn of the event loop, so the answer it gets is from the previous ask: a socket that
 * joins the room on another instance is missed by at most the one broadcast sent before the next lookup.
 * Losing the subscriber connection forgets everything (Redis dropped this instance's subscriptions).
 */
class RoomPresence {
  /** Rooms found with no subscriber but this instance, and when that lookup was sent. */
  private readonly alone = new Map<string, number>();
  private readonly due = new Set<string>();
  /** Said once per run of failed lookups (a Redis outage fails every one). */
  private failing = false;

  constructor(
    private readonly adapter: Adapter,
    private readonly pub: Redis,
    private readonly subscriptions: Subscriptions,
    private readonly channelOf: (room: string) => string,
    private readonly logger: Logger,
  ) {
    adapter.on('delete-room', (room: string) => this.alone.delete(room));
    subscriptions.onLost(() => this.alone.clear());
  }

  onlyHere(room: string): boolean {
    if (!this.adapter.rooms.get(room)?.size) return false;
    if (!this.due.size) {
      setImmediate(() => {
        this.lookUp().catch((err: unknown) => this.logger.warn({ err }, 'room presence lookup failed'));
      });
    }
    this.due.add(room);
    const at = this.alone.get(room);
    return at !== undefined && performance.now() - at <= PRESENCE_MAX_AGE_MS;
  }

  /** Never rejects: a failed lookup leaves its rooms unknown (broadcast through Redis). */
  private async lookUp(): Promise<void> {
    const asked: Array<{ room: string; channel: string; subscription: number }> = [];
    for (const room of this.due) {
      // Only a confirmed subscription is surely in Redis's count.
      const channel = this.channelOf(room);
      const subscription = this.subscriptions.confirmed(channel);
      if (subscription !== undefined) asked.push({ room, channel, subscription });
      else this.alone.delete(room);
    }
    this.due.clear();
    const sentAt = performance.now();
    const batches: (typeof asked)[] = [];
    for (let i = 0; i < asked.length; i += LOOKUP_BATCH) batches.push(asked.slice(i, i + LOOKUP_BATCH));
    await Promise.all(
      batches.map(async (batch) => {
        try {
          const reply = (await this.pub.call(
            'PUBSUB',
            'SHARDNUMSUB',
            ...batch.map((a) => a.channel),
          )) as unknown[];
          // [channel, count, channel, count, …] in the order asked. A count is this instance's own only if
          // its subscription is still the one confirmed before the lookup (no unsubscribe since, no lost
          // connection: either might have reached Redis before the lookup did).
          for (const [i, { room, channel, subscription }] of batch.entries()) {
            const mine = this.subscriptions.confirmed(channel) === subscription;
            if (mine && Number(reply[2 * i + 1]) === 1) this.alone.set(room, sentAt);
            else this.alone.delete(room);
          }
          this.failing = false;
        } catch (err) {
          for (const { room } of batch) this.alone.delete(room);
          if (!this.failing) {
            this.logger.warn(
              { err: (err as Error).message, rooms: batch.length },
              'room presence lookup failed; their broadcasts go through Redis',
            );
          }
          this.failing = true;
        }
      }),
    );
  }
}

interface Subscriptions {
  /**
   * This connection's subscription to the channel if Redis confirmed it and no change is under way: a token
   * that differs for each subscription (undefined otherwise).
   */
  confirmed(channel: string): number | undefined;
  /** The subscriber connection was lost (Redis forgets its subscriptions with it). */
  onLost(listener: () => void): void;
}

/**
 * The adapter subscribes and unsubscribes a channel per room without handling the answer. While the
 * subscriber connection is down (Redis closes a subscriber that falls behind its output buffer limit, and
 * networks fail) those calls are refused, and an unhandled rejection ends the process: here they are logged
 * instead, and the channels that could not be subscribed are subscribed again once the connection is back
 * (ioredis itself subscribes again to those it holds).
 */
function keepSubscribing(sub: Redis, logger: Logger): Subscriptions {
  const missed = new Set<string>();
  const confirmed = new Map<string, number>();
  // The last (un)subscription asked per channel, until answered: an older answer does not confirm.
  const asked = new Map<string, number>();
  let asks = 0;
  const lost: Array<() => void> = [];
  const ask = (channels: string[]) => {
    const id = ++asks;
    for (const c of channels) {
      missed.delete(c);
      confirmed.delete(c);
      asked.set(c, id);
    }
    return (subscribed: boolean) => {
      for (const c of channels) {
        if (asked.get(c) !== id) continue;
        asked.delete(c);
        if (subscribed) confirmed.set(c, id);
      }
    };
  };
  const ssubscribe = sub.ssubscribe.bind(sub) as (...channels: string[]) => Promise<unknown>;
  const sunsubscribe = sub.sunsubscribe.bind(sub) as (...channels: string[]) => Promise<unknown>;
  const refused = (what: string, channels: string[]) => (err: Error) => {
    if (what === 'subscribe') for (const c of channels) missed.add(c);
    logger.warn({ err: err.message, channels: channels.length }, `redis ${what} refused`);
  };
  Object.assign(sub, {
    ssubscribe(...channels: string[]) {
      const answered = ask(channels);
      const answer = ssubscribe(...channels);
      answer.then(
        () => answered(true),
        (err: Error) => {
          answered(false);
          refused('subscribe', channels)(err);
        },
      );
      return answer;
    },
    sunsubscribe(...channels: string[]) {
      const answered = ask(channels);
      const answer = sunsubscribe(...channels);
      answer.then(
        () => answered(false),
        (err: Error) => {
          answered(false);
          refused('unsubscribe', channels)(err);
        },
      );
      return answer;
    },
  });
  sub.on('ready', () => {
    if (missed.size) void (sub.ssubscribe as (...c: string[]) => Promise<unknown>)(...missed);
  });
  // ioredis subscribes again to what it held once it is back (through ssubscribe above: confirmed again).
  sub.on('close', () => {
    confirmed.clear();
    for (const listener of lost) listener();
  });
  return {
    confirmed: (channel) => confirmed.get(channel),
    onLost: (listener) => lost.push(listener),
  };
}
