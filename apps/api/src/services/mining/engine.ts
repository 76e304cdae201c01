// The mining engine: live sessions, accrual from timestamps, the rate fixed per session, the 10-day
// boundary, the daily cap, dropped sockets, maintenance, and checkpoints. Server-authoritative: the
// client's events are requests; time comes from the injected clock; money is base units.
// No Express or Socket.IO here: events leave through `EngineEvents`.
import {
  accruedUnits,
  fromBaseUnits,
  SERVER_MESSAGES,
  type ServerEventName,
  type ServerEventPayload,
  type StreamPlatform,
} from '@strm/shared';
import { performance } from 'node:perf_hooks';
import TinyQueue from 'tinyqueue';
import type { Clock } from '../../clock.ts';
import type { Lease } from '../../cluster/membership.ts';
import type { PrismaClient } from '../../db/index.ts';
import type { Logger } from '../../logger.ts';
import { type BackgroundLoop, backgroundLoop } from '../../observability/background.ts';
import type { Metrics } from '../../observability/metrics.ts';
import type { LiveStatus, PlatformAccountRef, PlatformAdapters } from '../../platforms/adapter.ts';
import { normaliseUsername } from '../../platforms/adapter.ts';
import type { TierActivation, RecordChange, StreamerRecords } from '../chain/streamer-records.ts';
import type { TierCatalog } from '../tiers.ts';
import { dailyCapAt, type LocalDay, localDay, usedInDay } from './daily.ts';
import { engagementBoostPermille, type EngagementOptions } from './engagement.ts';
import { rateAt } from './rate.ts';
import { type Checkpoint, OpenSessionExists, type SessionRow, SessionStore } from './store.ts';

export type EndReason = ServerEventPayload<'stream-stopped'>['reason'];

/**
 * A request on a wallet's live session. It is run by the instance that owns the session, whichever instance
 * the client's socket (or REST call) reached.
 */
export type SessionControl =
  | { kind: 'stop'; wallet: string; reason: EndReason; platform?: StreamPlatform }
  | { kind: 'increase-rate'; wallet: string }
  | { kind: 'view'; wallet: string };

/** A live view as it travels between instances (JSON: no bigint, no Date). */
export interface LiveViewWire {
  platform: StreamPlatform;
  tierName: string;
  rateUnitsPerHour: string;
  startedAtMs: number;
  untilMs: number;
  minedUnits: string;
  currentDailyDuration: number;
  boundaryAtMs: number | null;
}

/** The owner's answer (a refusal carries the event and message its client gets). */
export type SessionControlAnswer =
  | { outcome: 'stopped' | 'not-live' }
  | { outcome: 'rate-increased'; payload: ServerEventPayload<'rate-increased'> }
  | { outcome: 'view'; view: LiveViewWire }
  | { outcome: 'refused'; event: MiningError['event']; message: string };

export interface EngineEvents {
  toWallet<E extends ServerEventName>(wallet: string, event: E, payload: ServerEventPayload<E>): void;
  /** Whether the wallet has a socket on another instance (several instances behind a load balancer). */
  connectedElsewhere?(wallet: string): Promise<boolean>;
  /**
   * Runs `request` on the instance `owner` (another live instance) and answers what it answered: null when
   * it did not answer in time, or there is no transport between instances.
   */
  toInstance?(owner: string, request: SessionControl): Promise<SessionControlAnswer | null>;
}

/** The session's owner is alive but did not answer a forwarded request. */
export const OWNER_UNREACHABLE =
  'Your live session runs on another server that did not answer; please try again';

export interface EngineOptions {
  updateIntervalMs: number;
  checkpointIntervalMs: number;
  gracePeriodMs: number;
  engagement: EngagementOptions;
  /** How long a start waits for the chain watch to be subscribed before refusing. */
  chainWatchWaitMs?: number;
}

export interface EngineDeps {
  /** This instance (cluster/membership.ts): the owner of the sessions it runs. */
  instanceId: string;
  /** Its lease: re-taken before a sweep, and orphans closed only while it is surely held. */
  lease?: Lease;
  metrics?: Metrics;
  prisma: PrismaClient;
  clock: Clock;
  logger: Logger;
  tiers: TierCatalog;
  records: StreamerRecords;
  platforms: PlatformAdapters;
  events: EngineEvents;
  options: EngineOptions;
}

/** A refusal the socket layer turns into the named event with this message. */
export class MiningError extends Error {
  constructor(
    readonly event: 'room-error' | 'error' | 'dailyLimitReached' | 'twitch:not-live',
    message: string,
    readonly currentDailyDuration = 0,
  ) {
    super(message);
  }
}

interface LiveSession {
  id: number;
  wallet: string;
  platform: StreamPlatform;
  username: string;
  /** The platform account as it was verified when the session opened: it may not change while open. */
  externalId: string | null;
  tierName: string;
  activatedAt: Date;
  rateUnitsPerHour: bigint;
  startedAtMs: number;
  /** The last moment the stake and the platform account were confirmed (a re-read ending it ends here). */
  validAtMs: number;
  /** Live milliseconds of the session's local start day mined before it (daily cap). */
  usedBeforeMs: number;
  timezone: string;
  /** The local day of the last update (cached). */
  day?: LocalDay;
  dailyLimitSeconds: number;
  /** The daily cap (null: unreachable) and the 10-day boundary (null: max rate reached). */
  capAtMs: number | null;
  boundaryAtMs: number | null;
  nextUpdateAtMs: number;
  nextCheckpointAtMs: number;
  /** Set while no socket of the wallet is connected: the last moment one was. */
  disconnectedAtMs: number | null;
  unwatch: Array<() => void>;
}

/** How long checkpoint re-reads of the stake and the platform account are gathered into one batch. */
const REVALIDATION_BATCH_MS = 10_000;

/** Why a session stops being valid, and what its user is told. */
interface Problem {
  reason: EndReason;
  message: string;
}

type Due = { at: number; wallet: string; id: number; kind: 'update' | 'checkpoint' | 'end' | 'grace' };

/** A session ended in memory whose closing write the database has not taken yet (written when it can). */
interface PendingClose {
  session: LiveSession;
  endedAt: number;
  mined: bigint;
  reason: EndReason;
}

/** Retries of database writes the engine keeps (checkpoints, closes): from 1 s, doubling, at most 5 s. */
const WRITE_RETRY_MS = { first: 1000, max: 5000 };

const PLATFORM_LABEL: Record<StreamPlatform, string> = { tiktok: 'TikTok', twitch: 'Twitch', demo: 'Demo' };

export interface StartRequest {
  wallet: string;
  platform: StreamPlatform;
  username: string;
}

export interface StartResult extends ServerEventPayload<'stream-started'> {}

/** A live session's figures at a moment (mining-stats). */
export interface LiveView {
  platform: StreamPlatform;
  tierName: string;
  rateUnitsPerHour: bigint;
  startedAt: Date;
  until: Date;
  minedUnits: bigint;
  currentDailyDuration: number;
  boundaryAt: Date | null;
}

export class MiningEngine {
  private readonly sessions = new Map<string, LiveSession>();
  private readonly starting = new Set<string>();
  private readonly connections = new Map<string, number>();
  private readonly connectedSinceAdopt = new Set<string>();
  private readonly queue = new TinyQueue<Due>([], (a, b) => a.at - b.at);
  private readonly store: SessionStore;
  /**
   * Checkpoints due and not written yet, the latest per session: a checkpoint is the session's accrual up
   * to a moment (not an increment), so a newer one replaces an older one that could not be written.
   */
  private pendingCheckpoints = new Map<number, Checkpoint>();
  /** Closes the database refused, by session id: retried with the checkpoints, announced once written. */
  private readonly pendingCloses = new Map<number, PendingClose>();
  /** While writes fail: when to try again, and how many failed in a row. */
  private writeRetryAtMs = 0;
  private writeFailures = 0;
  private maintenance = false;
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> | undefined;
  /** Sessions whose checkpoint came due: their stake and platform account are read again (one batch at a time). */
  private pendingRevalidation: LiveSession[] = [];
  private revalidating: Promise<void> | undefined;
  /** Re-reads are gathered for up to this long: one chain request per 100 sessions, one query, per batch. */
  private nextRevalidationAtMs = 0;
  private readonly inFlight = new Set<Promise<unknown>>();
  private sweepLoop: BackgroundLoop | undefined;
  /** Database writes (session opens, checkpoint statements, closes), for the benchmark. */
  readonly stats = { opens: 0, checkpointStatements: 0, checkpointRows: 0, closes: 0 };

  constructor(private readonly deps: EngineDeps) {
    this.store = new SessionStore(deps.prisma, deps.instanceId);
  }

  // ---- lifecycle -------------------------------------------------------------------------------

  /**
   * Takes over or closes what dead instances left (see sweep), then ticks. Answers how many sessions it
   * closed at their last checkpoint.
   */
  async run(tickMs: number, sweepMs = 1000): Promise<number> {
    const closed = await this.sweep();
    this.timer = setInterval(() => this.tick(), tickMs);
    this.timer.unref();
    this.sweepLoop = backgroundLoop({
      name: 'session-sweep',
      intervalMs: sweepMs,
      maxBackoffMs: Math.max(sweepMs, WRITE_RETRY_MS.max),
      run: () => this.sweep(),
      logger: this.deps.logger,
      metrics: this.deps.metrics,
    });
    return closed;
  }

  /**
   * Stops ticking, writes a last checkpoint of every live session and releases them: the instance that
   * holds (or next gets) the wallet's socket takes each over; one nobody takes is closed at that checkpoint.
   */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.sweepLoop?.stop();
    await Promise.allSettled([...this.inFlight, this.flushing, this.revalidating]);
    const now = this.deps.clock.now().getTime();
    for (const s of this.sessions.values()) {
      for (const unwatch of s.unwatch) unwatch();
      this.queueCheckpoint(this.checkpointOf(s, now));
    }
    await this.flushWrites();
    this.sessions.clear();
    await this.store.releaseAll();
  }

  // ---- several instances -------------------------------------------------------------------------

  /**
   * Sessions of dead (or departed) instances: those whose wallet is connected here are taken over and go
   * on from where they are (accrual is computed from their start, so the outage is not lost); those nobody
   * took within the grace period are closed at their last checkpoint (at most one interval lost).
   */
  async sweep(): Promise<number> {
    const { lease } = this.deps;
    // After a database outage the lease has lapsed: re-take it before taking anything over.
    if (lease && !lease.held) await lease.renew();
    await this.adoptFor([...this.connections.keys()]);
    if (lease && !lease.mayCloseOrphans) return 0;
    let closed = 0;
    for (const row of await this.store.orphans(this.deps.options.gracePeriodMs)) {
      const mined = accruedUnits(
        row.rateUnitsPerHour,
        (row.accruedUntil.getTime() - row.startedAt.getTime()) / 1000,
      );
      const pending = await this.store.close(
        row.id,
        row.accruedUntil,
        mined,
        'server-restart',
        row.ownerInstance,
      );
      if (pending === null) continue; // taken over or closed meanwhile
      closed++;
      this.deps.events.toWallet(row.wallet, 'stream-stopped', {
        duration: Math.floor((row.accruedUntil.getTime() - row.startedAt.getTime()) / 1000),
        amountMined: fromBaseUnits(mined),
        pendingReward: fromBaseUnits(pending),
        reason: 'disconnected',
      });
    }
    if (closed)
      this.deps.logger.info({ closed }, 'sessions nobody ran were credited up to their last checkpoint');
    return closed;
  }

  private async adoptFor(wallets: string[]): Promise<void> {
    const free = wallets.filter((w) => !this.sessions.has(w) && !this.starting.has(w));
    for (const row of await this.store.adopt(free)) {
      try {
        await this.resume(row);
      } catch (err) {
        // It stays ours in the database and is closed at its last checkpoint by the orphan rule once
        // released: release it now so that happens.
        this.deps.logger.error({ err, wallet: row.wallet, id: row.id }, 'taking over a session failed');
        await this.store.release(row.id).catch(() => {});
      }
    }
  }

  /**
   * Runs a session another instance started, from its row: same start, rate, cap and boundary. The stake
   * and the platform account are checked again (watched first, then read): a session whose stake or
   * account is gone ends at its last checkpoint, the last moment it was known to be valid.
   */
  private async resume(row: SessionRow): Promise<void> {
    const { wallet } = row;
    const tier = this.deps.tiers.get(row.tierName);
    const buffered: RecordChange[] = [];
    let onRecord: (change: RecordChange) => void = (change) => {
      buffered.push(change);
    };
    const unwatchRecord = this.deps.records.watch(wallet, (change) => onRecord(change));
    let record: TierActivation | null;
    let streamer: Awaited<ReturnType<PrismaClient['streamer']['findUnique']>>;
    let account: Awaited<ReturnType<PrismaClient['platformAccount']['findUnique']>>;
    try {
      [record, streamer, account] = await Promise.all([
        this.deps.records.read(wallet),
        this.deps.prisma.streamer.findUnique({ where: { wallet } }),
        this.deps.prisma.platformAccount.findUnique({
          where: { wallet_platform: { wallet, platform: row.platform } },
        }),
      ]);
    } catch (err) {
      unwatchRecord();
      throw err;
    }
    if (!tier || !streamer?.tierActivatedAt || !account) {
      unwatchRecord();
      throw new Error('session context is gone');
    }
    const startedAtMs = row.startedAt.getTime();
    const limitMs = tier.dailyMiningLimitSeconds * 1000;
    const usedBeforeMs = await this.usedToday(wallet, startedAtMs, streamer.timezone);
    const rate = rateAt(tier, streamer.tierActivatedAt, row.startedAt);
    const now = this.nowMs();
    const session: LiveSession = {
      id: row.id,
      wallet,
      platform: row.platform,
      username: account.username,
      externalId: account.externalId,
      tierName: tier.name,
      activatedAt: streamer.tierActivatedAt,
      rateUnitsPerHour: row.rateUnitsPerHour,
      startedAtMs,
      validAtMs: row.accruedUntil.getTime(),
      usedBeforeMs,
      timezone: streamer.timezone,
      dailyLimitSeconds: tier.dailyMiningLimitSeconds,
      capAtMs: dailyCapAt(startedAtMs, usedBeforeMs, limitMs, streamer.timezone),
      boundaryAtMs: rate.nextRateIncreaseAt?.getTime() ?? null,
      nextUpdateAtMs: now,
      nextCheckpointAtMs: now + this.deps.options.checkpointIntervalMs,
      disconnectedAtMs: (this.connections.get(wallet) ?? 0) > 0 ? null : now,
      unwatch: [],
    };
    this.sessions.set(wallet, session);
    this.schedule(session);
    session.unwatch.push(unwatchRecord);
    onRecord = (change) => this.recordChanged(session, change);
    this.watchPlatform(session, { wallet, username: account.username, externalId: account.externalId });
    this.deps.logger.info({ wallet, id: row.id }, 'took over a mining session');
    const problem =
      this.recordProblem(session, record) ?? this.accountProblem(session, account, row.platform);
    if (problem) {
      this.deps.logger.warn(
        { wallet, id: row.id, problem: problem.reason },
        'a taken-over session was no longer valid',
      );
      this.tellProblem(session, problem);
      await this.end(wallet, session.id, session.validAtMs, problem.reason);
      return;
    }
    session.validAtMs = now;
    for (const change of buffered) this.recordChanged(session, change);
  }

  /** Forgets a session this instance no longer owns (no events: its new owner speaks for it). */
  private drop(id: number): void {
    for (const s of this.sessions.values()) {
      if (s.id !== id) continue;
      for (const unwatch of s.unwatch) unwatch();
      this.sessions.delete(s.wallet);
      this.deps.logger.warn({ wallet: s.wallet, id }, 'a session was taken over by another instance');
    }
  }

  /** The grace period ran out here: end the session, unless the wallet is connected to another instance. */
  private async graceExpired(s: LiveSession): Promise<void> {
    const elsewhere = await this.deps.events.connectedElsewhere?.(s.wallet).catch(() => false);
    if (this.sessions.get(s.wallet) !== s || s.disconnectedAtMs == null) return;
    if (elsewhere) {
      // Checkpoint, then let the instance holding the socket take it over (its next sweep).
      const now = this.nowMs();
      s.disconnectedAtMs = null;
      await this.store.checkpoint([this.checkpointOf(s, now)]);
      if (await this.store.release(s.id)) this.drop(s.id);
      return;
    }
    await this.end(s.wallet, s.id, s.disconnectedAtMs, 'disconnected');
  }

  setMaintenance(on: boolean): void {
    this.maintenance = on;
  }

  isLive(wallet: string): boolean {
    return this.sessions.has(wallet);
  }

  /** Sockets of the wallet connected now. */
  connectionCount(wallet: string): number {
    return this.connections.get(wallet) ?? 0;
  }

  get liveCount(): number {
    return this.sessions.size;
  }

  // ---- sockets -----------------------------------------------------------------------------

  socketConnected(wallet: string): void {
    this.connections.set(wallet, (this.connections.get(wallet) ?? 0) + 1);
    const session = this.sessions.get(wallet);
    if (session?.disconnectedAtMs != null) session.disconnectedAtMs = null;
    // Its session may be one a departed instance released: take it over now rather than at the next sweep.
    if (!session) this.adoptSoon(wallet);
  }

  /**
   * Looks for sessions to take over for the wallets whose sockets connected in this turn of the event loop,
   * in one query: sockets arrive in waves (a ramp, or every client of a stopped instance reconnecting), and
   * a query per socket made the database the limit of how fast they could start streaming.
   */
  private adoptSoon(wallet: string): void {
    const scheduled = this.connectedSinceAdopt.size > 0;
    this.connectedSinceAdopt.add(wallet);
    if (scheduled) return;
    setImmediate(() => {
      const wallets = [...this.connectedSinceAdopt];
      this.connectedSinceAdopt.clear();
      void this.adoptFor(wallets).catch((err: unknown) =>
        this.deps.logger.warn({ err, wallets: wallets.length }, 'taking over sessions failed'),
      );
    });
  }

  /** The wallet's last socket dropped: its session ends after the grace period unless it reconnects. */
  socketDisconnected(wallet: string): void {
    const left = (this.connections.get(wallet) ?? 1) - 1;
    if (left > 0) {
      this.connections.set(wallet, left);
      return;
    }
    this.connections.delete(wallet);
    const session = this.sessions.get(wallet);
    if (!session) return;
    const now = this.nowMs();
    session.disconnectedAtMs = now;
    this.queue.push({ at: now + this.deps.options.gracePeriodMs, wallet, id: session.id, kind: 'grace' });
  }

  // ---- requests --------------------------------------------------------------------------------

  private nowMs(): number {
    return this.deps.clock.now().getTime();
  }

  private async verifiedAccount(wallet: string, platform: StreamPlatform, username?: string) {
    const account = await this.deps.prisma.platformAccount.findUnique({
      where: { wallet_platform: { wallet, platform } },
      include: { streamer: { select: { timezone: true, tierName: true, tierActivatedAt: true } } },
    });
    if (!account?.isVerified) throw new MiningError('room-error', SERVER_MESSAGES[`${platform}NotVerified`]);
    if (username !== undefined && normaliseUsername(username) !== normaliseUsername(account.username)) {
      throw new MiningError('room-error', SERVER_MESSAGES[`${platform}NotVerified`]);
    }
    const ref: PlatformAccountRef = { wallet, username: account.username, externalId: account.externalId };
    return { ...ref, streamer: account.streamer };
  }

  private adapter(platform: StreamPlatform) {
    const adapter = this.deps.platforms.get(platform);
    if (!adapter) throw new MiningError('room-error', `${PLATFORM_LABEL[platform]} is not available here`);
    return adapter;
  }

  /** join-room: the wallet's verified account on the platform and its live state now. */
  async room(wallet: string, platform: StreamPlatform) {
    const account = await this.verifiedAccount(wallet, platform);
    const status = await this.liveStatus(platform, account);
    return {
      platform,
      room: `${platform}:${normaliseUsername(account.username)}`,
      username: account.username,
      isLive: status.live,
      viewers: status.viewers,
    };
  }

  private async liveStatus(platform: StreamPlatform, account: PlatformAccountRef): Promise<LiveStatus> {
    try {
      return await this.adapter(platform).liveStatus(account);
    } catch (err) {
      if (err instanceof MiningError) throw err;
      this.deps.logger.warn({ err, platform }, 'platform live status unavailable');
      throw new MiningError('room-error', `Failed to connect to ${PLATFORM_LABEL[platform]} Live`);
    }
  }

  private async readTierActivation(wallet: string, platform: StreamPlatform): Promise<TierActivation> {
    const record = await this.deps.records.read(wallet).catch((err: unknown) => {
      this.deps.logger.warn({ err }, 'streamer record unreadable');
      throw new MiningError('room-error', SERVER_MESSAGES.tierReadFailed);
    });
    if (!record) throw new MiningError('room-error', SERVER_MESSAGES[`${platform}NoTier`]);
    return record;
  }

  /** Live milliseconds of closed sessions inside the local day that contains `atMs`. */
  private async usedToday(wallet: string, atMs: number, timezone: string): Promise<number> {
    const day = localDay(atMs, timezone);
    return usedInDay(await this.store.intervals(wallet, day.startMs, day.endMs), day);
  }

  /** start-stream: every rule is checked here, against the chain, the platform and the database. */
  async startSession(request: StartRequest): Promise<StartResult> {
    const { wallet, platform } = request;
    if (this.maintenance) throw new MiningError('room-error', SERVER_MESSAGES.maintenanceActive);
    if (this.sessions.has(wallet) || this.starting.has(wallet)) {
      throw new MiningError('error', SERVER_MESSAGES.alreadyMining);
    }
    this.starting.add(wallet);
    // The record is watched before it is read: a deactivation landing at any point of the start is seen.
    const buffered: RecordChange[] = [];
    let onRecord: (change: RecordChange) => void = (change) => {
      buffered.push(change);
    };
    let unwatchRecord: (() => void) | undefined = this.deps.records.watch(wallet, (change) =>
      onRecord(change),
    );
    try {
      if (!(await this.deps.records.ready(this.deps.options.chainWatchWaitMs ?? 5000))) {
        this.deps.logger.warn({ wallet }, 'chain watch not subscribed; start refused');
        throw new MiningError('room-error', SERVER_MESSAGES.tierReadFailed);
      }
      // The account (with its streamer row: one query) and the chain's record, side by side.
      const [accountResult, recordResult] = await Promise.allSettled([
        this.verifiedAccount(wallet, platform, request.username),
        this.readTierActivation(wallet, platform),
      ]);
      // The verified account is checked first, as the client does.
      if (accountResult.status === 'rejected') throw accountResult.reason;
      if (recordResult.status === 'rejected') throw recordResult.reason;
      const account = accountResult.value;
      const record = recordResult.value;
      const tier = this.deps.tiers.get(record.tierName);
      if (!tier) throw new MiningError('room-error', SERVER_MESSAGES.tierNotFound);
      const status = await this.liveStatus(platform, account);
      if (!status.live) {
        if (platform === 'twitch') throw new MiningError('twitch:not-live', SERVER_MESSAGES.twitchNotLive);
        throw new MiningError('room-error', SERVER_MESSAGES.notLive);
      }
      const { streamer } = account;
      if (
        streamer.tierName !== record.tierName ||
        streamer.tierActivatedAt?.getTime() !== record.activatedAt.getTime()
      ) {
        // The mirror of the chain's record (GET /streamer, increase-rate) follows the truth.
        await this.deps.prisma.streamer.update({
          where: { wallet },
          data: { tierName: record.tierName, tierActivatedAt: record.activatedAt },
        });
      }
      if (this.maintenance) throw new MiningError('room-error', SERVER_MESSAGES.maintenanceActive);

      const now = this.nowMs();
      const limitMs = tier.dailyMiningLimitSeconds * 1000;
      const usedBeforeMs = await this.usedToday(wallet, now, streamer.timezone);
      if (usedBeforeMs >= limitMs) {
        throw new MiningError(
          'dailyLimitReached',
          SERVER_MESSAGES.dailyLimitReached,
          Math.floor(usedBeforeMs / 1000),
        );
      }
      const boost = engagementBoostPermille(this.deps.options.engagement, status.viewers);
      const rate = rateAt(tier, record.activatedAt, new Date(now), boost);
      let id: number;
      try {
        id = await this.store.open({
          wallet,
          platform,
          tierName: tier.name,
          rateUnitsPerHour: rate.rateUnitsPerHour,
          startedAt: new Date(now),
        });
      } catch (err) {
        if (err instanceof OpenSessionExists) throw new MiningError('error', SERVER_MESSAGES.alreadyMining);
        throw err;
      }
      this.stats.opens++;
      const session: LiveSession = {
        id,
        wallet,
        platform,
        username: account.username,
        externalId: account.externalId,
        tierName: tier.name,
        activatedAt: record.activatedAt,
        rateUnitsPerHour: rate.rateUnitsPerHour,
        startedAtMs: now,
        validAtMs: now,
        usedBeforeMs,
        timezone: streamer.timezone,
        dailyLimitSeconds: tier.dailyMiningLimitSeconds,
        capAtMs: dailyCapAt(now, usedBeforeMs, limitMs, streamer.timezone),
        boundaryAtMs: rate.nextRateIncreaseAt?.getTime() ?? null,
        nextUpdateAtMs: now + this.deps.options.updateIntervalMs,
        nextCheckpointAtMs: now + this.deps.options.checkpointIntervalMs,
        disconnectedAtMs: (this.connections.get(wallet) ?? 0) > 0 ? null : now,
        unwatch: [],
      };
      // Open now (a rename or a verification elsewhere sees it): read the stake and the account once more.
      // What changed since they were first read ends the session where it began, nothing credited.
      const problem = await this.recheckOpened(session, buffered);
      if (problem) {
        await this.store.close(id, new Date(now), 0n, problem.reason).catch((err: unknown) => {
          this.deps.logger.error({ err, wallet, id }, 'closing a refused session failed');
        });
        throw new MiningError('room-error', problem.message);
      }
      this.sessions.set(wallet, session);
      this.schedule(session);
      session.unwatch.push(unwatchRecord);
      unwatchRecord = undefined;
      onRecord = (change) => this.recordChanged(session, change);
      this.watchPlatform(session, account);
      return {
        startedAt: new Date(now).toISOString(),
        miningRate: fromBaseUnits(rate.rateUnitsPerHour),
        engagementBoostPercent: boost / 10,
        platform,
        currentDailyDuration: Math.floor(usedBeforeMs / 1000),
        dailyLimitSeconds: tier.dailyMiningLimitSeconds,
        nextRateIncrease: rate.nextRateIncreaseAt?.toISOString() ?? null,
      };
    } finally {
      unwatchRecord?.();
      this.starting.delete(wallet);
    }
  }

  /** After the row is open: the buffered chain changes, the record read again and the account read again. */
  private async recheckOpened(session: LiveSession, buffered: RecordChange[]): Promise<Problem | null> {
    const { wallet, platform } = session;
    const [record, account] = await Promise.all([
      this.deps.records.read(wallet).catch((err: unknown) => {
        this.deps.logger.warn({ err, wallet }, 'streamer record unreadable after the session opened');
        return undefined;
      }),
      this.deps.prisma.platformAccount.findUnique({ where: { wallet_platform: { wallet, platform } } }),
    ]);
    if (record === undefined) {
      return { reason: 'tier-deactivated', message: SERVER_MESSAGES.tierReadFailed };
    }
    for (const change of [...buffered, { record }]) {
      const problem = this.recordProblem(session, change.record);
      if (problem) return problem;
    }
    return this.accountProblem(session, account, platform);
  }

  /** The stake the session runs on is gone or changed (null: it holds). */
  private recordProblem(session: LiveSession, record: TierActivation | null): Problem | null {
    if (
      record &&
      record.tierName === session.tierName &&
      record.activatedAt.getTime() === session.activatedAt.getTime()
    ) {
      return null;
    }
    return { reason: 'tier-deactivated', message: SERVER_MESSAGES[`${session.platform}NoTier`] };
  }

  /** The platform account the session runs on is no longer the one it opened with (null: unchanged). */
  private accountProblem(
    session: LiveSession,
    account: { isVerified: boolean; username: string; externalId: string | null } | null,
    platform: StreamPlatform,
  ): Problem | null {
    if (
      account?.isVerified &&
      normaliseUsername(account.username) === normaliseUsername(session.username) &&
      account.externalId === session.externalId &&
      platform === session.platform
    ) {
      return null;
    }
    return { reason: 'not-live', message: SERVER_MESSAGES.accountChangedWhileLive };
  }

  /** What the user is told beside stream-stopped when a session stops being valid. */
  private tellProblem(session: LiveSession, problem: Problem): void {
    this.deps.events.toWallet(session.wallet, 'error', { message: problem.message });
  }

  /** A change of the live session's streamer record: anything but the record it started on ends it. */
  private recordChanged(session: LiveSession, change: RecordChange): void {
    if (this.sessions.get(session.wallet) !== session) return;
    const problem = this.recordProblem(session, change.record);
    if (!problem) return;
    // At the change's time on chain when known (never later than now): nothing is credited after it.
    const now = this.nowMs();
    const at = Math.min(now, change.atMs ?? now);
    this.track(this.end(session.wallet, session.id, at, problem.reason));
  }

  /** Ends the session when the stream goes offline, or the platform cannot confirm it is live. */
  private watchPlatform(session: LiveSession, account: PlatformAccountRef): void {
    const { wallet } = session;
    session.unwatch.push(
      this.adapter(session.platform).watch(account, (s) => {
        if (s.live || this.sessions.get(wallet) !== session) return;
        if (s.unconfirmed)
          this.tellProblem(session, { reason: 'not-live', message: SERVER_MESSAGES.liveUnconfirmed });
        this.track(this.end(wallet, session.id, this.nowMs(), 'not-live'));
      }),
    );
  }

  /**
   * Every checkpoint also re-reads the stake (one request per 100 sessions) and the platform accounts (one
   * query): a session no longer valid ends at the last moment it was confirmed.
   */
  private async revalidate(sessions: LiveSession[]): Promise<void> {
    const wallets = sessions.map((s) => s.wallet);
    const [records, accounts] = await Promise.all([
      this.deps.records.readMany(wallets),
      this.deps.prisma.platformAccount.findMany({ where: { wallet: { in: wallets } } }),
    ]);
    const now = this.nowMs();
    for (const s of sessions) {
      if (this.sessions.get(s.wallet) !== s) continue;
      const account = accounts.find((a) => a.wallet === s.wallet && a.platform === s.platform) ?? null;
      const problem =
        this.recordProblem(s, records.get(s.wallet) ?? null) ?? this.accountProblem(s, account, s.platform);
      if (!problem) {
        s.validAtMs = now;
        continue;
      }
      this.deps.logger.warn(
        { wallet: s.wallet, id: s.id, problem: problem.reason },
        'a live session is no longer valid',
      );
      this.tellProblem(s, problem);
      await this.end(s.wallet, s.id, s.validAtMs, problem.reason);
    }
  }

  private schedule(s: LiveSession): void {
    const { wallet, id } = s;
    this.queue.push({ at: s.nextUpdateAtMs, wallet, id, kind: 'update' });
    this.queue.push({ at: s.nextCheckpointAtMs, wallet, id, kind: 'checkpoint' });
    const endAt = this.endOf(s);
    if (endAt) this.queue.push({ at: endAt.at, wallet, id, kind: 'end' });
    if (s.disconnectedAtMs != null) {
      this.queue.push({
        at: s.disconnectedAtMs + this.deps.options.gracePeriodMs,
        wallet,
        id,
        kind: 'grace',
      });
    }
  }

  /** Whichever comes first: the daily cap or the rate boundary (the boundary wins a tie: its rate is due). */
  private endOf(s: LiveSession): { at: number; reason: EndReason } | null {
    if (s.boundaryAtMs != null && (s.capAtMs == null || s.boundaryAtMs <= s.capAtMs)) {
      return { at: s.boundaryAtMs, reason: 'rate-increased' };
    }
    return s.capAtMs != null ? { at: s.capAtMs, reason: 'daily-limit' } : null;
  }

  /**
   * stop-stream / leave-room (only a session on `platform` when given) / tier deactivation, wherever the
   * session runs. Answers whether a live session was stopped.
   */
  async stopSession(
    wallet: string,
    reason: EndReason = 'stopped',
    platform?: StreamPlatform,
  ): Promise<boolean> {
    const answer = await this.control({ kind: 'stop', wallet, reason, ...(platform ? { platform } : {}) });
    return answer.outcome === 'stopped';
  }

  /**
   * Whether the wallet has a live session here or on another instance, or one is starting here: every
   * "not while live" rule counts a start in progress (one starting elsewhere re-reads the account after
   * its session opens, and ends if it changed).
   */
  async liveAnywhere(wallet: string): Promise<boolean> {
    return this.sessions.has(wallet) || this.starting.has(wallet) || (await this.store.hasOpen(wallet));
  }

  /**
   * Runs a request on the wallet's live session: here when this instance owns it; else at its owner (an
   * instance behind the same load balancer, which then speaks to the wallet's sockets through the adapter);
   * else, its owner being gone, here after taking it over.
   */
  private async control(request: SessionControl): Promise<SessionControlAnswer> {
    const { wallet } = request;
    if (this.sessions.has(wallet)) return this.controlHere(request);
    const open = await this.store.openSessionOf(wallet);
    if (!open) return { outcome: 'not-live' };
    if (open.ownerInstance && open.ownerAlive && open.ownerInstance !== this.deps.instanceId) {
      const answer = await this.forward(open.ownerInstance, request);
      if (answer) return answer;
      throw new MiningError('error', OWNER_UNREACHABLE);
    }
    await this.adoptFor([wallet]);
    return this.controlHere(request);
  }

  private async forward(owner: string, request: SessionControl): Promise<SessionControlAnswer | null> {
    const answer = await this.deps.events.toInstance?.(owner, request).catch((err: unknown) => {
      this.deps.logger.warn({ err, wallet: request.wallet }, 'forwarding a session request failed');
      return null;
    });
    if (!answer) {
      this.deps.logger.warn(
        { wallet: request.wallet, owner, kind: request.kind },
        'session owner did not answer',
      );
    }
    return answer ?? null;
  }

  /** A request another instance forwarded: answered when this instance owns the session, else null. */
  async controlForwarded(owner: string, request: SessionControl): Promise<SessionControlAnswer | null> {
    if (owner !== this.deps.instanceId) return null;
    try {
      return await this.controlHere(request);
    } catch (err) {
      if (err instanceof MiningError) return { outcome: 'refused', event: err.event, message: err.message };
      throw err;
    }
  }

  private async controlHere(request: SessionControl): Promise<SessionControlAnswer> {
    const session = this.sessions.get(request.wallet);
    if (!session) return { outcome: 'not-live' };
    if (request.kind === 'view') {
      const v = this.liveView(request.wallet);
      if (!v) return { outcome: 'not-live' };
      return {
        outcome: 'view',
        view: {
          platform: v.platform,
          tierName: v.tierName,
          rateUnitsPerHour: v.rateUnitsPerHour.toString(),
          startedAtMs: v.startedAt.getTime(),
          untilMs: v.until.getTime(),
          minedUnits: v.minedUnits.toString(),
          currentDailyDuration: v.currentDailyDuration,
          boundaryAtMs: v.boundaryAt?.getTime() ?? null,
        },
      };
    }
    if (request.kind === 'stop') {
      if (request.platform && request.platform !== session.platform) return { outcome: 'not-live' };
      await this.end(session.wallet, session.id, this.nowMs(), request.reason);
      return { outcome: 'stopped' };
    }
    const now = this.nowMs();
    if (session.boundaryAtMs == null || now < session.boundaryAtMs) {
      return { outcome: 'refused', event: 'error', message: SERVER_MESSAGES.rateNotDue };
    }
    const payload =
      (await this.end(session.wallet, session.id, session.boundaryAtMs, 'rate-increased')) ??
      this.rateNow(session, now);
    return { outcome: 'rate-increased', payload };
  }

  /** increase-rate: answered with rate-increased once the session's 10-day boundary has passed. */
  async increaseRate(wallet: string): Promise<ServerEventPayload<'rate-increased'>> {
    const answer = await this.control({ kind: 'increase-rate', wallet });
    if (answer.outcome === 'rate-increased') return answer.payload;
    if (answer.outcome === 'refused') throw new MiningError(answer.event, answer.message);
    const now = this.nowMs();
    // Not live: the session may just have ended at the boundary; answer with the rate due now.
    const last = await this.deps.prisma.miningSession.findFirst({
      where: { wallet },
      orderBy: { startedAt: 'desc' },
    });
    const streamer = await this.deps.prisma.streamer.findUnique({ where: { wallet } });
    const tier = last && this.deps.tiers.get(last.tierName);
    if (!last || !tier || !streamer?.tierActivatedAt)
      throw new MiningError('error', SERVER_MESSAGES.notMining);
    const due = rateAt(tier, streamer.tierActivatedAt, new Date(now));
    if (due.rateUnitsPerHour <= last.rateUnitsPerHour)
      throw new MiningError('error', SERVER_MESSAGES.rateNotDue);
    return {
      status: 'success',
      miningRate: fromBaseUnits(due.rateUnitsPerHour),
      nextRateIncrease: due.nextRateIncreaseAt?.toISOString() ?? null,
    };
  }

  private rateNow(s: Pick<LiveSession, 'tierName' | 'activatedAt'>, now: number) {
    const tier = this.deps.tiers.get(s.tierName);
    const due = tier ? rateAt(tier, s.activatedAt, new Date(now)) : null;
    return {
      status: 'success' as const,
      miningRate: due ? fromBaseUnits(due.rateUnitsPerHour) : 0,
      nextRateIncrease: due?.nextRateIncreaseAt?.toISOString() ?? null,
    };
  }

  /** Maintenance start: every live session ends at this instant. */
  async endAll(reason: EndReason): Promise<number> {
    const now = this.nowMs();
    const live = [...this.sessions.values()];
    await Promise.all(live.map((s) => this.end(s.wallet, s.id, now, reason)));
    return live.length;
  }

  // ---- accrual and ending ----------------------------------------------------------------------

  /** The last instant the session is credited for, at `now`. */
  private creditedUntil(s: LiveSession, now: number): number {
    let until = now;
    if (s.disconnectedAtMs != null) until = Math.min(until, s.disconnectedAtMs);
    const end = this.endOf(s);
    if (end) until = Math.min(until, end.at);
    return Math.max(s.startedAtMs, until);
  }

  private minedUntil(s: LiveSession, until: number): bigint {
    return accruedUnits(s.rateUnitsPerHour, (until - s.startedAtMs) / 1000);
  }

  private dailyDurationAt(s: LiveSession, at: number): number {
    // The local day is computed again only when `at` leaves the one cached (zone arithmetic is not free
    // at thousands of updates a second).
    if (!s.day || at < s.day.startMs || at >= s.day.endMs) s.day = localDay(at, s.timezone);
    const day = s.day;
    const before = s.startedAtMs >= day.startMs ? s.usedBeforeMs : 0;
    return Math.floor((before + usedInDay([{ startMs: s.startedAtMs, endMs: at }], day)) / 1000);
  }

  /**
   * Ends the session at `atMs` (never past its cap, boundary or the socket's drop), credits it and tells
   * the wallet. Returns the rate-increased payload when the boundary ended it.
   */
  private async end(
    wallet: string,
    id: number,
    atMs: number,
    reason: EndReason,
  ): Promise<ServerEventPayload<'rate-increased'> | undefined> {
    const s = this.sessions.get(wallet);
    if (!s || s.id !== id) return undefined;
    this.sessions.delete(wallet);
    for (const unwatch of s.unwatch) unwatch();
    const endMs = Math.min(this.creditedUntil(s, atMs), atMs);
    const endedAt = Math.max(s.startedAtMs, endMs);
    const close: PendingClose = { session: s, endedAt, mined: this.minedUntil(s, endedAt), reason };
    try {
      return await this.writeClose(close);
    } catch (err) {
      // The database is away: the close is kept and written (credited exactly once) when it is back; the
      // session stays this instance's meanwhile, so nobody closes it at an older checkpoint.
      this.deps.logger.error({ err, wallet, id }, 'closing a mining session failed; written when possible');
      this.pendingCloses.set(id, close);
      this.deps.events.toWallet(wallet, 'error', { message: SERVER_MESSAGES.creditDelayed });
      return undefined;
    }
  }

  /** Writes a close and tells the wallet; throws when the database did not take it. */
  private async writeClose(close: PendingClose): Promise<ServerEventPayload<'rate-increased'> | undefined> {
    const { session: s, endedAt, mined, reason } = close;
    const { wallet, id } = s;
    const pending = await this.store.close(id, new Date(endedAt), mined, reason);
    this.pendingCloses.delete(id);
    this.stats.closes++;
    if (pending === null) {
      // Another instance took it over (this one had lost its lease): that one speaks for it.
      this.deps.logger.warn({ wallet, id }, 'a session this instance no longer owned was not closed here');
      return undefined;
    }
    const { events } = this.deps;
    events.toWallet(wallet, 'stream-stopped', {
      duration: Math.floor((endedAt - s.startedAtMs) / 1000),
      amountMined: fromBaseUnits(mined),
      pendingReward: fromBaseUnits(pending),
      reason,
    });
    if (reason === 'not-live' && s.platform === 'twitch') {
      events.toWallet(wallet, 'twitch:not-live', { message: SERVER_MESSAGES.twitchNotLive });
    }
    if (reason === 'daily-limit') {
      events.toWallet(wallet, 'dailyLimitReached', {
        message: SERVER_MESSAGES.dailyLimitReached,
        currentDailyDuration: this.dailyDurationAt(s, endedAt),
      });
    }
    if (reason === 'rate-increased') {
      const payload = this.rateNow(s, endedAt);
      events.toWallet(wallet, 'rate-increased', payload);
      return payload;
    }
    return undefined;
  }

  // ---- the clock -------------------------------------------------------------------------------

  /**
   * Does everything due by now: updates, boundaries, caps, grace periods, checkpoints (batched). The
   * scan is synchronous; database work (ends, the checkpoint batch) runs behind it, so a slow database
   * never delays the next tick's updates (at 10,000 sessions an awaited checkpoint held them by seconds).
   */
  tick(): void {
    try {
      const now = this.nowMs();
      for (let due = this.queue.peek(); due && due.at <= now; due = this.queue.peek()) {
        this.queue.pop();
        const s = this.sessions.get(due.wallet);
        if (!s || s.id !== due.id) continue;
        switch (due.kind) {
          case 'update':
            this.update(s, now);
            s.nextUpdateAtMs = due.at + this.deps.options.updateIntervalMs;
            if (s.nextUpdateAtMs <= now) s.nextUpdateAtMs = now + this.deps.options.updateIntervalMs;
            this.queue.push({ ...due, at: s.nextUpdateAtMs });
            break;
          case 'checkpoint':
            this.queueCheckpoint(this.checkpointOf(s, now));
            this.pendingRevalidation.push(s);
            s.nextCheckpointAtMs = now + this.deps.options.checkpointIntervalMs;
            this.queue.push({ ...due, at: s.nextCheckpointAtMs });
            break;
          case 'end': {
            const end = this.endOf(s);
            if (end && end.at <= now) this.track(this.end(s.wallet, s.id, end.at, end.reason));
            break;
          }
          case 'grace':
            if (s.disconnectedAtMs != null && s.disconnectedAtMs + this.deps.options.gracePeriodMs <= now) {
              this.track(
                this.graceExpired(s).catch((err: unknown) => {
                  // The database is away: asked again later (the session is credited up to the drop).
                  this.deps.logger.warn({ err, wallet: s.wallet }, 'ending a dropped session failed');
                  this.queue.push({ ...due, at: this.nowMs() + WRITE_RETRY_MS.max });
                }),
              );
            }
            break;
        }
      }
      // One checkpoint statement at a time; rows due meanwhile wait for the next one. After a failure the
      // next attempt waits (the database is away), then writes what was kept.
      if (
        !this.flushing &&
        (this.pendingCheckpoints.size || this.pendingCloses.size) &&
        performance.now() >= this.writeRetryAtMs
      ) {
        this.flushing = this.flushWrites().finally(() => {
          this.flushing = undefined;
        });
      }
      if (!this.revalidating && this.pendingRevalidation.length && now >= this.nextRevalidationAtMs) {
        this.nextRevalidationAtMs =
          now + Math.min(REVALIDATION_BATCH_MS, this.deps.options.checkpointIntervalMs);
        const batch = this.pendingRevalidation;
        this.pendingRevalidation = [];
        this.revalidating = this.revalidate(batch)
          .catch((err: unknown) => {
            // The chain or the database is away: the sessions go on; the next checkpoint reads them again
            // (and a restored chain watch reads every watched record).
            this.deps.logger.warn({ err, sessions: batch.length }, 'checking live sessions failed');
          })
          .finally(() => {
            this.revalidating = undefined;
          });
      }
    } catch (err) {
      this.deps.logger.error({ err }, 'mining tick failed');
    }
  }

  /** Database work started by a tick, awaited by stop(); a failure is logged (never unhandled). */
  private track(work: Promise<unknown>): void {
    const caught = work.catch((err: unknown) => this.deps.logger.error({ err }, 'mining engine work failed'));
    this.inFlight.add(caught);
    void caught.finally(() => this.inFlight.delete(caught));
  }

  private update(s: LiveSession, now: number): void {
    if (s.disconnectedAtMs != null) return;
    const until = this.creditedUntil(s, now);
    this.deps.events.toWallet(s.wallet, 'mining-update', {
      duration: Math.floor((until - s.startedAtMs) / 1000),
      minedAmount: fromBaseUnits(this.minedUntil(s, until)),
      miningRate: fromBaseUnits(s.rateUnitsPerHour),
      platform: s.platform,
      currentDailyDuration: this.dailyDurationAt(s, until),
    });
  }

  private checkpointOf(s: LiveSession, now: number): Checkpoint {
    const until = this.creditedUntil(s, now);
    return { id: s.id, accruedUntil: new Date(until), minedUnits: this.minedUntil(s, until) };
  }

  private queueCheckpoint(checkpoint: Checkpoint): void {
    this.pendingCheckpoints.set(checkpoint.id, checkpoint);
  }

  /** Checkpoints owed, then the closes the database refused before (in that order: a close is final). */
  private async flushWrites(): Promise<void> {
    const batch = [...this.pendingCheckpoints.values()];
    this.pendingCheckpoints = new Map();
    try {
      if (batch.length) {
        const lost = await this.store.checkpoint(batch);
        for (const id of lost) this.drop(id);
        this.stats.checkpointStatements++;
        this.stats.checkpointRows += batch.length;
      }
      for (const close of [...this.pendingCloses.values()]) await this.writeClose(close);
      if (this.writeFailures) {
        this.deps.logger.info({ failures: this.writeFailures }, 'checkpoints written again');
        this.deps.metrics?.backgroundFailing.set({ loop: 'checkpoints' }, 0);
      }
      this.writeFailures = 0;
    } catch (err) {
      // Kept unless a newer checkpoint of the session arrived meanwhile.
      for (const c of batch) if (!this.pendingCheckpoints.has(c.id)) this.pendingCheckpoints.set(c.id, c);
      this.writeFailures++;
      const retryMs = Math.min(WRITE_RETRY_MS.max, WRITE_RETRY_MS.first * 2 ** (this.writeFailures - 1));
      this.writeRetryAtMs = performance.now() + retryMs;
      this.deps.metrics?.backgroundFailures.inc({ loop: 'checkpoints' });
      this.deps.metrics?.backgroundFailing.set({ loop: 'checkpoints' }, 1);
      if (this.writeFailures === 1 || this.writeFailures % 12 === 0) {
        this.deps.logger.error(
          {
            err,
            sessions: this.pendingCheckpoints.size,
            closes: this.pendingCloses.size,
            failures: this.writeFailures,
          },
          'checkpoint failed; kept and written when the database answers',
        );
      }
    }
  }

  /** Checkpoints and closes waiting for the database (the fault suite and /health read it). */
  get unwritten(): { checkpoints: number; closes: number } {
    return { checkpoints: this.pendingCheckpoints.size, closes: this.pendingCloses.size };
  }

  // ---- live view for REST ------------------------------------------------------------------------

  /**
   * The open session's figures now wherever it runs (mining-stats through any instance), or null. A dead
   * owner's session is not taken over for a read: it is not live until an instance runs it again.
   */
  async liveViewAnywhere(wallet: string): Promise<LiveView | null> {
    const here = this.liveView(wallet);
    if (here) return here;
    const open = await this.store.openSessionOf(wallet);
    if (!open?.ownerInstance || !open.ownerAlive || open.ownerInstance === this.deps.instanceId) return null;
    const answer = await this.forward(open.ownerInstance, { kind: 'view', wallet });
    if (answer?.outcome !== 'view') return null;
    const v = answer.view;
    return {
      platform: v.platform,
      tierName: v.tierName,
      rateUnitsPerHour: BigInt(v.rateUnitsPerHour),
      startedAt: new Date(v.startedAtMs),
      until: new Date(v.untilMs),
      minedUnits: BigInt(v.minedUnits),
      currentDailyDuration: v.currentDailyDuration,
      boundaryAt: v.boundaryAtMs == null ? null : new Date(v.boundaryAtMs),
    };
  }

  /** The open session's figures now if it runs here, or null. */
  liveView(wallet: string): LiveView | null {
    const s = this.sessions.get(wallet);
    if (!s) return null;
    const until = this.creditedUntil(s, this.nowMs());
    return {
      platform: s.platform,
      tierName: s.tierName,
      rateUnitsPerHour: s.rateUnitsPerHour,
      startedAt: new Date(s.startedAtMs),
      until: new Date(until),
      minedUnits: this.minedUntil(s, until),
      currentDailyDuration: this.dailyDurationAt(s, until),
      boundaryAt: s.boundaryAtMs == null ? null : new Date(s.boundaryAtMs),
    };
  }
}
