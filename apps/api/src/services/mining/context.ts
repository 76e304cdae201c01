// What the engine's parts share: its dependencies, the live sessions of this instance and the queue of
// work due on them, the writes the database owes, and the database work in flight.
import type { StreamPlatform } from '@strm/shared';
import type { PlatformAdapter } from '../../platforms/adapter.ts';
import { StreamerRepository } from '../../db/streamer-repository.ts';
import { scheduledEnd } from './accrual.ts';
import { type EngineCounters, engineCounters } from './counters.ts';
import { DueQueue } from './due-queue.ts';
import { DomainError } from '../../errors.ts';
import type { LiveSession } from './session.ts';
import { type Checkpoint, SessionStore } from './store.ts';
import type { EndReason, EngineDeps } from './types.ts';

/** A session ended in memory whose closing write the database has not taken yet (written when it can). */
export interface PendingClose {
  session: LiveSession;
  endedAt: number;
  mined: bigint;
  reason: EndReason;
}

/** Retries of database writes the engine keeps (checkpoints, closes): from 1 s, doubling, at most 5 s. */
export const WRITE_RETRY_MS = { first: 1000, max: 5000 };

const PLATFORM_LABEL: Record<StreamPlatform, string> = {
  tiktok: 'TikTok',
  twitch: 'Twitch',
  youtube: 'YouTube',
  kick: 'Kick',
  demo: 'Demo',
};

export function platformLabel(platform: StreamPlatform): string {
  return PLATFORM_LABEL[platform];
}

export class EngineContext {
  /** The live sessions this instance runs, by wallet. */
  readonly sessions = new Map<string, LiveSession>();
  /** Wallets whose start is in progress here. */
  readonly starting = new Set<string>();
  /** Sockets connected here, by wallet. */
  readonly connections = new Map<string, number>();
  /**
   * Wallets with a socket here and no session here: the only ones the sweep may take a session over for (it
   * walked every connected wallet each second, 10,000 lookups at 10,000 live sessions).
   */
  readonly idle = new Set<string>();
  readonly queue = new DueQueue();
  readonly store: SessionStore;
  readonly streamers: StreamerRepository;
  readonly counters: EngineCounters;
  maintenance = false;
  readonly writes = {
    /**
     * Checkpoints due and not written yet, the latest per session: a checkpoint is the session's accrual up
     * to a moment (not an increment), so a newer one replaces an older one that could not be written.
     */
    checkpoints: new Map<number, Checkpoint>(),
    /** Closes the database refused, by session id: retried with the checkpoints, announced once written. */
    closes: new Map<number, PendingClose>(),
    /** While writes fail: when to try again (performance.now()), and how many failed in a row. */
    retryAtMs: 0,
    failures: 0,
    /** When the next checkpoint statement may start (performance.now()): checkpoints due meanwhile join it. */
    nextFlushAtMs: 0,
    flushing: undefined as Promise<void> | undefined,
  };
  readonly revalidation = {
    /** Sessions whose checkpoint came due: their stake and platform account are read again (one batch at a time). */
    pending: [] as LiveSession[],
    running: undefined as Promise<void> | undefined,
    /** Re-reads are gathered for up to this long: one chain request per 100 sessions, one query, per batch. */
    nextAtMs: 0,
  };
  /** When this instance began running sessions (its first sweep): orphans wait a grace period from here. */
  runningSinceMs = Number.NEGATIVE_INFINITY;
  /** Database work started by a tick or a watch, awaited on stop. */
  readonly inFlight = new Set<Promise<unknown>>();

  constructor(readonly deps: EngineDeps) {
    this.store = deps.sessionStore ?? new SessionStore(deps.prisma, deps.instanceId);
    this.streamers = deps.streamers ?? new StreamerRepository(deps.prisma);
    this.counters = deps.counters ?? engineCounters();
  }

  nowMs(): number {
    return this.deps.clock.now().getTime();
  }

  /** Whether `s` is still the wallet's session here (not ended, dropped or replaced meanwhile). */
  isCurrent(s: LiveSession): boolean {
    return s.running;
  }

  /** Whether a socket of the wallet is connected here. */
  connected(wallet: string): boolean {
    return (this.connections.get(wallet) ?? 0) > 0;
  }

  /** Database work in the background, awaited by stop(); a failure is logged (never unhandled). */
  track(work: Promise<unknown>): void {
    const caught: Promise<unknown> = work
      .catch((err: unknown) => this.deps.logger.error({ err }, 'mining engine work failed'))
      .finally(() => this.inFlight.delete(caught));
    this.inFlight.add(caught);
  }

  /** Runs a new live session: its updates, checkpoints, end and (dropped) grace period are queued. */
  add(s: LiveSession): void {
    const replaced = this.sessions.get(s.wallet);
    if (replaced && replaced !== s) replaced.running = false;
    this.sessions.set(s.wallet, s);
    this.idle.delete(s.wallet);
    s.running = true;
    this.queue.push({ at: s.nextUpdateAtMs, session: s, kind: 'update' });
    this.queue.push({ at: s.nextCheckpointAtMs, session: s, kind: 'checkpoint' });
    const end = scheduledEnd(s);
    if (end) this.queue.push({ at: end.at, session: s, kind: 'end' });
    if (s.disconnectedAtMs != null) this.queueGrace(s, s.disconnectedAtMs);
  }

  /** The grace period of a session whose last socket dropped at `fromMs`. */
  queueGrace(s: LiveSession, fromMs: number): void {
    this.queue.push({ at: fromMs + this.deps.options.gracePeriodMs, session: s, kind: 'grace' });
  }

  /** Stops running a session: its watches end and its queued work is skipped. */
  remove(s: LiveSession): void {
    if (this.sessions.get(s.wallet) === s) {
      this.sessions.delete(s.wallet);
      if (this.connections.has(s.wallet)) this.idle.add(s.wallet);
    }
    s.running = false;
    for (const unwatch of s.unwatch) unwatch();
  }

  /** Forgets a session this instance no longer owns (no events: its new owner speaks for it). */
  forget(id: number): void {
    for (const s of this.sessions.values()) {
      if (s.id !== id) continue;
      this.remove(s);
      this.deps.logger.warn({ wallet: s.wallet, id }, 'a session was taken over by another instance');
    }
  }

  adapter(platform: StreamPlatform): PlatformAdapter {
    const adapter = this.deps.platforms.get(platform);
    if (!adapter)
      throw new DomainError('platform_not_available', `${platformLabel(platform)} is not available here`);
    return adapter;
  }
}
