import type { Options, Store } from 'express-rate-limit';
// The socket server's abuse limits, per instance: token buckets on client events (per socket and per
// wallet), a cap of sockets per wallet, and a bucket of handshakes per client address. Wall time (a limit
// on how fast a client talks, not a domain time).
import { performance } from 'node:perf_hooks';

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
  take(key: string): Promise<boolean> | boolean;
}

/**
 * `perMinute` handshakes per key: with a shared store (Redis, which falls back to memory while it cannot be
 * reached: http/rate-limits.ts) counted by every instance together in one-minute windows, so a client
 * spreading its handshakes over N instances gets no more than from one; without, a token bucket here.
 */
export function addressLimiter(perMinute: number, store: Store | undefined): AddressLimiter {
  if (!store) {
    const buckets = new KeyedBuckets({ perSecond: perMinute / 60, burst: perMinute });
    return { take: (key) => buckets.take(key) };
  }
  store.init?.({ windowMs: 60_000 } as Options);
  return { take: async (key) => (await store.increment(key)).totalHits <= perMinute };
}

/** Open sockets per wallet, counted from the handshake that admits one until it closes. */
export class SocketCounts {
  private readonly counts = new Map<string, number>();

  constructor(private readonly max: number) {}

  /** Counts one more socket for `wallet`; false (nothing counted) when it already has `max`. */
  admit(wallet: string): boolean {
    const n = this.counts.get(wallet) ?? 0;
    if (n >= this.max) return false;
    this.counts.set(wallet, n + 1);
    return true;
  }

  release(wallet: string): void {
    const n = (this.counts.get(wallet) ?? 0) - 1;
    if (n > 0) this.counts.set(wallet, n);
    else this.counts.delete(wallet);
  }
}
