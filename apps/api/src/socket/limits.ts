// The socket server's abuse limits: token buckets on client events (per socket, and per wallet on this
// instance), a cap of sockets per wallet and a limit of handshakes per client address (both counted by every
// instance together with REDIS_URL). Wall time (a limit on how fast a client talks, not a domain time).
import { performance } from 'node:perf_hooks';
import type { Options, Store } from 'express-rate-limit';
import { addressKey } from '../http/rate-limits.ts';

export interface BucketOptions {
  perSecond: number;
  burst: number;
}

/** Starts full; each take costs one token; tokens come back at `perSecond` up to `burst`. */
export class TokenBucket {
  private tokens: number;
  private at = performance.now();

  constructor(private readonly options: BucketOptions) {
    this.tokens = options.burst;
  }

  take(): boolean {
    this.refill();
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }

  /** Whether it is full again (nothing to remember about its key). */
  get full(): boolean {
    this.refill();
    return this.tokens >= this.options.burst;
  }

  private refill(): void {
    const now = performance.now();
    this.tokens = Math.min(
      this.options.burst,
      this.tokens + ((now - this.at) / 1000) * this.options.perSecond,
    );
    this.at = now;
  }
}

/** A bucket per key (a wallet, an address); full buckets are dropped on a periodic sweep. */
export class KeyedBuckets {
  private readonly buckets = new Map<string, TokenBucket>();
  private takes = 0;

  constructor(private readonly options: BucketOptions) {}

  take(key: string): boolean {
    let bucket = this.buckets.get(key);
    if (!bucket) {
      bucket = new TokenBucket(this.options);
      this.buckets.set(key, bucket);
    }
    // Every so many takes, forget the keys whose buckets have filled up again (memory stays bounded by
    // the keys active in the last `burst / perSecond` seconds).
    if (++this.takes % 1000 === 0) this.sweep();
    return bucket.take();
  }

  private sweep(): void {
    for (const [key, bucket] of this.buckets) if (bucket.full) this.buckets.delete(key);
  }
}

/** Handshakes per client address, counted here or (with REDIS_URL) by every instance together. */
export interface AddressLimiter {
  /** Counts one for the client `address` (an IPv6 one by its /56, as the REST limits count it). */
  take(address: string): Promise<boolean> | boolean;
}

/**
 * `perMinute` handshakes per key: with a shared store (Redis, which falls back to memory while it cannot be
 * reached: http/rate-limits.ts) counted by every instance together in one-minute windows, so a client
 * spreading its handshakes over N instances gets no more than from one; without, a token bucket here.
 */
export function addressLimiter(perMinute: number, store: Store | undefined): AddressLimiter {
  if (!store) {
    const buckets = new KeyedBuckets({ perSecond: perMinute / 60, burst: perMinute });
    return { take: (address) => buckets.take(addressKey(address)) };
  }
  store.init?.({ windowMs: 60_000 } as Options);
  return { take: async (address) => (await store.increment(addressKey(address))).totalHits <= perMinute };
}

/** Open sockets per wallet: admitted at the handshake, released when the socket closes. */
export interface WalletSocketCounts {
  /** Counts socket `id` for `wallet`; false (nothing counted) when the wallet has its maximum already. */
  admit(wallet: string, id: string): Promise<boolean> | boolean;
  release(wallet: string, id: string): void;
}

/** Open sockets per wallet on this instance, counted from the handshake that admits one until it closes. */
export class SocketCounts implements WalletSocketCounts {
  private readonly counts = new Map<string, number>();

  constructor(private readonly max: number) {}

  /** Counts one more socket for `wallet`; false (nothing counted) when it already has `max`. */
  admit(wallet: string, _id?: string): boolean {
    const n = this.counts.get(wallet) ?? 0;
    if (n >= this.max) return false;
    this.counts.set(wallet, n + 1);
    return true;
  }

  release(wallet: string, _id?: string): void {
    const n = (this.counts.get(wallet) ?? 0) - 1;
    if (n > 0) this.counts.set(wallet, n);
    else this.counts.delete(wallet);
  }
}

/** How long a socket's entry in Redis lives without being renewed (an instance that dies leaves none for long). */
const SHARED_ENTRY_MS = 90_000;
const RENEW_MS = 30_000;
/** Drops expired entries, then adds the socket unless the wallet has `max` (KEYS[1]; ARGV: now, expiry, max, id). */
const ADMIT_SCRIPT = `
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[3]) then return 0 end
redis.call('ZADD', KEYS[1], ARGV[2], ARGV[4])
redis.call('PEXPIRE', KEYS[1], ${SHARED_ENTRY_MS})
return 1`;

/** What SharedSocketCounts needs of ioredis. */
export interface SocketCountsRedis {
  eval(script: string, keys: number, ...args: (string | number)[]): Promise<unknown>;
  zrem(key: string, member: string): Promise<unknown>;
  zadd(key: string, ...args: (string | number)[]): Promise<unknown>;
}

/**
 * A wallet's sockets counted by every instance together (REDIS_URL): a sorted set per wallet whose members are
 * `<instance>:<socket>` scored by when they lapse, renewed every 30 s by the instance holding them, so an
 * instance that dies without releasing leaves nothing counted for more than 90 s. While Redis cannot be reached,
 * each instance still counts its own (the limit per instance, never none).
 */
export class SharedSocketCounts implements WalletSocketCounts {
  private readonly local: SocketCounts;
  private readonly held = new Map<string, string>();
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly redis: SocketCountsRedis,
    private readonly options: {
      max: number;
      prefix: string;
      instance: string;
      /** Told when Redis stops answering (once, until it answers again) and when it is back (null). */
      reachability(err: unknown | null): void;
    },
  ) {
    this.local = new SocketCounts(options.max);
    this.timer = setInterval(() => this.renew(), RENEW_MS);
    this.timer.unref();
  }

  private key(wallet: string) {
    return `${this.options.prefix}${wallet}`;
  }

  private member(id: string) {
    return `${this.options.instance}:${id}`;
  }

  private failing = false;

  /** Redis answered (`err` null) or did not: said once per change, not once per socket. */
  private reached(err: unknown | null): void {
    if ((err !== null) === this.failing) return;
    this.failing = err !== null;
    this.options.reachability(err);
  }

  async admit(wallet: string, id: string): Promise<boolean> {
    if (!this.local.admit(wallet)) return false;
    const now = Date.now();
    try {
      const admitted = await this.redis.eval(
        ADMIT_SCRIPT,
        1,
        this.key(wallet),
        now,
        now + SHARED_ENTRY_MS,
        this.options.max,
        this.member(id),
      );
      this.reached(null);
      if (admitted !== 1) {
        this.local.release(wallet);
        return false;
      }
      this.held.set(id, wallet);
    } catch (err) {
      // Counted here only.
      this.reached(err);
    }
    return true;
  }

  release(wallet: string, id: string): void {
    this.local.release(wallet);
    if (!this.held.delete(id)) return;
    this.redis.zrem(this.key(wallet), this.member(id)).catch((err: unknown) => this.reached(err));
  }

  private renew(): void {
    const expiry = Date.now() + SHARED_ENTRY_MS;
    for (const [id, wallet] of this.held) {
      this.redis
        .zadd(this.key(wallet), 'XX', expiry, this.member(id))
        .catch((err: unknown) => this.reached(err));
    }
  }

  stop(): void {
    clearInterval(this.timer);
  }
}
