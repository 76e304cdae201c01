// The mining engine's state over in-memory fakes, for the unit tests beside its modules: a clock the test
// moves (it also moves performance.now(), which times the engine's write back-off), a session store keeping
// rows as mining_sessions holds them, and the events a wallet would be told, recorded in order.
import { performance } from 'node:perf_hooks';
import { rateAt, type StreamPlatform } from '@strm/shared';
import { vi } from 'vitest';
import type { Clock } from '../../src/clock.ts';
import type { Lease } from '../../src/cluster/membership.ts';
import type { PrismaClient } from '../../src/db/index.ts';
import type { StreamerRepository } from '../../src/db/streamer-repository.ts';
import { createLogger } from '../../src/logger.ts';
import type { PlatformAdapter } from '../../src/platforms/adapter.ts';
import { EngineContext } from '../../src/services/mining/context.ts';
import { buildSession, type LiveSession } from '../../src/services/mining/session.ts';
import type { SessionStore } from '../../src/services/mining/store.ts';
import type { EngineEvents, EngineOptions } from '../../src/services/mining/types.ts';
import type { CatalogTier, TierCatalog } from '../../src/services/tiers/catalog.ts';
import type { RecordChange, StreamerRecords, TierActivation } from '../../src/rpc/streamer-records.ts';
import { FakeSessionStore } from './session-store.ts';

export { FakeSessionStore };

export const SECOND = 1000;
export const HOUR = 3600 * SECOND;
export const DAY = 24 * HOUR;
export const START = Date.parse('2026-01-05T10:00:00Z');
export const ME = 'instance-here';

/** Wall time the test moves; performance.now() moves with it once `install()`ed (restored by vi.restoreAllMocks). */
export class FakeClock implements Clock {
  private monotonicMs = 1_000_000;
  constructor(public ms = START) {}

  now(): Date {
    return new Date(this.ms);
  }

  advance(ms: number): void {
    this.ms += ms;
    this.monotonicMs += ms;
  }

  install(): this {
    vi.spyOn(performance, 'now').mockImplementation(() => this.monotonicMs);
    return this;
  }
}

/** One mining tier: 10 tokens an hour (6 decimals), doubling up to 80, 8 hours a day. */
export const TIER: CatalogTier = {
  id: 1,
  name: 'Bronze',
  depositUnits: 0n,
  baseMultiplier: 1,
  hourlyBaseRateUnits: 10_000_000n,
  maxMultiplier: 8,
  hourlyMaxRateUnits: 80_000_000n,
  dailyMiningLimitSeconds: 8 * 3600,
  orderBy: 1,
};

export type Told = { wallet: string; kind: string; payload: unknown };

/** What the engine tells wallets, in order; `elsewhere` are the wallets with a socket on another instance. */
export function recordingEvents(): EngineEvents & { told: Told[]; elsewhere: Set<string> } {
  const told: Told[] = [];
  const say = (kind: string) => (wallet: string, payload?: unknown) => {
    told.push({ wallet, kind, payload });
  };
  const elsewhere = new Set<string>();
  return {
    told,
    elsewhere,
    update: say('update'),
    stopped: say('stopped'),
    rateIncreased: say('rate-increased'),
    dailyLimitReached: (wallet, _message, currentDailyDuration) =>
      say('daily-limit')(wallet, currentDailyDuration),
    twitchNotLive: say('twitch-not-live'),
    notice: say('notice'),
    connectedElsewhere: async (wallet) => elsewhere.has(wallet),
  };
}

/** The chain's streamer records: every wallet holds `TIER` activated at `activatedAt` unless told otherwise. */
export class FakeRecords implements StreamerRecords {
  readonly records = new Map<string, TierActivation | null>();
  readonly watchers = new Map<string, (change: RecordChange) => void>();
  constructor(private readonly activatedAt: Date) {}

  private of(wallet: string): TierActivation | null {
    const known = this.records.get(wallet);
    return known === undefined
      ? { tierName: TIER.name, activatedAt: this.activatedAt, deposited: 0n }
      : known;
  }
  async read(wallet: string) {
    return this.of(wallet);
  }
  async readMany(wallets: readonly string[]) {
    return new Map(wallets.map((w) => [w, this.of(w)] as const));
  }
  watch(wallet: string, onChange: (change: RecordChange) => void) {
    this.watchers.set(wallet, onChange);
    return () => this.watchers.delete(wallet);
  }
  watchAccount() {
    return () => {};
  }
  async ready() {
    return true;
  }
  close() {}
}

/** Streamer rows and verified Demo accounts (`username` = the wallet) for every wallet not in `gone`. */
function fakeStreamers(activatedAt: Date, gone: Set<string>): StreamerRepository {
  const account = (wallet: string, platform: StreamPlatform = 'demo') => ({
    wallet,
    platform,
    isVerified: true,
    username: wallet,
    externalId: null,
  });
  const fake: Partial<StreamerRepository> = {
    streamer: (async (wallet: string) =>
      gone.has(wallet) ? null : { wallet, timezone: 'UTC', tierActivatedAt: activatedAt }) as never,
    account: (async (wallet: string, platform: StreamPlatform) =>
      gone.has(wallet) ? null : account(wallet, platform)) as never,
    accountsOf: (async (wallets: readonly string[]) =>
      wallets.filter((w) => !gone.has(w)).map((w) => account(w))) as never,
  };
  // Only what the engine's running sessions read of streamers (the rest is the real-database suites').
  return fake as StreamerRepository;
}

export interface EngineFixture {
  ctx: EngineContext;
  clock: FakeClock;
  store: FakeSessionStore;
  events: ReturnType<typeof recordingEvents>;
  records: FakeRecords;
  /** Wallets whose streamer row and platform account are gone. */
  gone: Set<string>;
  /** Set `held` / `mayCloseOrphans` to act out an outage; `renewals` counts renew() calls. */
  lease: { held: boolean; mayCloseOrphans: boolean; renewals: number } & Lease;
}

export const OPTIONS: EngineOptions = {
  updateIntervalMs: 5 * SECOND,
  checkpointIntervalMs: 60 * SECOND,
  gracePeriodMs: 30 * SECOND,
  engagement: { maxBoostPercent: 0, viewersPerPercent: 1 },
};

/** An engine context at `START` over fakes; the tier was activated `activatedDaysAgo` days before. */
export function engineFixture(opts: { activatedDaysAgo?: number; options?: Partial<EngineOptions> } = {}) {
  const clock = new FakeClock().install();
  const activatedAt = new Date(START - (opts.activatedDaysAgo ?? 1) * DAY);
  const store = new FakeSessionStore(ME, clock);
  const events = recordingEvents();
  const records = new FakeRecords(activatedAt);
  const gone = new Set<string>();
  const lease = {
    held: true,
    mayCloseOrphans: true,
    renewals: 0,
    async renew() {
      this.renewals++;
      this.held = true;
    },
  };
  const demo: PlatformAdapter = {
    platform: 'demo',
    liveStatus: async () => ({ live: true, viewers: 0 }),
    watch: () => () => {},
  };
  const tiers: Partial<TierCatalog> = { get: (name: string) => (name === TIER.name ? TIER : undefined) };
  const ctx = new EngineContext({
    instanceId: ME,
    lease,
    prisma: {} as PrismaClient,
    sessionStore: store as unknown as SessionStore,
    streamers: fakeStreamers(activatedAt, gone),
    clock,
    logger: createLogger('silent'),
    tiers: tiers as TierCatalog,
    records,
    platforms: new Map([['demo', demo]]),
    events,
    options: { ...OPTIONS, ...opts.options },
  });
  return { ctx, clock, store, events, records, gone, lease } satisfies EngineFixture;
}

/**
 * Opens a session in the store and runs it here from now, connected, as a start would: its tier activated
 * as the fixture says, `usedBeforeMs` already mined today.
 */
export async function startLive(
  f: EngineFixture,
  wallet: string,
  opts: { usedBeforeMs?: number; connected?: boolean } = {},
): Promise<LiveSession> {
  const now = f.clock.ms;
  const record = (await f.records.read(wallet))!;
  const rate = rateAt(TIER, record.activatedAt, new Date(now));
  const id = await f.store.open({
    wallet,
    platform: 'demo',
    tierName: TIER.name,
    rateUnitsPerHour: rate.rateUnitsPerHour,
    startedAt: new Date(now),
  });
  f.store.usedBefore.set(wallet, opts.usedBeforeMs ?? 0);
  const s = buildSession(
    {
      id,
      wallet,
      platform: 'demo',
      account: { username: wallet, externalId: null },
      tier: TIER,
      activatedAt: record.activatedAt,
      rateUnitsPerHour: rate.rateUnitsPerHour,
      nextRateIncreaseAt: rate.nextRateIncreaseAt,
      startedAtMs: now,
      validAtMs: now,
      usedBeforeMs: opts.usedBeforeMs ?? 0,
      timezone: 'UTC',
    },
    {
      nowMs: now,
      firstUpdateAtMs: now + f.ctx.deps.options.updateIntervalMs,
      checkpointIntervalMs: f.ctx.deps.options.checkpointIntervalMs,
      connected: opts.connected ?? true,
    },
  );
  f.ctx.connections.set(wallet, opts.connected === false ? 0 : 1);
  f.ctx.add(s);
  return s;
}

/** Waits for the database work the engine started in the background (ends, write batches, re-reads). */
export async function settled(ctx: EngineContext): Promise<void> {
  for (let i = 0; i < 10; i++) {
    await Promise.all([...ctx.inFlight, ctx.writes.flushing, ctx.revalidation.running]);
    await new Promise((resolve) => setImmediate(resolve));
  }
}
