// The engine's public types: its dependencies and options, what it tells wallets, the requests it answers,
// the views it gives, and the session requests and answers that travel between instances (JSON: no bigint,
// no Date). No socket event is named here: the socket layer maps each outcome to its event.
import type { StreamPlatform } from '@strm/shared';
import type { Clock } from '../../clock.ts';
import type { Lease } from '../../cluster/membership.ts';
import type { PrismaClient } from '../../db/index.ts';
import type { Logger } from '../../logger.ts';
import type { Metrics } from '../../observability/metrics.ts';
import type { PlatformAdapters } from '../../platforms/adapter.ts';
import type { StreamerRecords } from '../../rpc/streamer-records.ts';
import type { StreamerRepository } from '../../db/streamer-repository.ts';
import type { SessionStore } from './store.ts';
import type { TierCatalog } from '../tiers/catalog.ts';
import type { EngineCounters } from './counters.ts';
import type { ErrorCode, ErrorDetails } from '../../errors.ts';
import type { EngagementOptions } from './engagement.ts';

/** Why a session ended. */
export type EndReason =
  | 'stopped'
  | 'left-room'
  | 'disconnected'
  | 'daily-limit'
  | 'rate-increased'
  | 'maintenance'
  | 'tier-deactivated'
  | 'not-live'
  | 'access-revoked';

/** A live session's figures (amounts in whole tokens, durations in seconds). */
export interface SessionFigures {
  duration: number;
  minedAmount: number;
  miningRate: number;
  platform: StreamPlatform;
  currentDailyDuration: number;
}

/** A session ended and credited. */
export interface SessionStopped {
  duration: number;
  amountMined: number;
  pendingReward: number;
  reason: EndReason;
}

/** The rate due now (after a 10-day boundary), and when it next doubles. */
export interface RateDue {
  status: 'success';
  miningRate: number;
  nextRateIncrease: string | null;
}

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

/** The owner's answer (a refusal carries its code, the message its client gets and its details). */
export type SessionControlAnswer =
  | { outcome: 'stopped' | 'not-live' }
  | { outcome: 'rate-increased'; payload: RateDue }
  | { outcome: 'view'; view: LiveViewWire }
  | { outcome: 'refused'; code: ErrorCode; message: string; details: ErrorDetails };

/**
 * Where a live session's updates go without a lookup each time: the wallet's sockets here, as the socket
 * layer holds them. A session keeps its outlet between updates and asks for a new one once it is closed.
 */
export interface UpdateOutlet {
  /** False once the wallet's last socket here has gone (a reconnecting socket gets a new outlet). */
  readonly open: boolean;
  update(figures: SessionFigures): void;
}

/** What the engine tells a wallet (all its sockets), and how it reaches other instances. */
export interface EngineEvents {
  /** The live session's figures, every update interval while a socket of the wallet is connected. */
  update(wallet: string, figures: SessionFigures): void;
  /** The wallet's sockets here as an outlet for its updates (undefined: none here; `update` is used). */
  outlet?(wallet: string): UpdateOutlet | undefined;
  /** The session ended and was credited. */
  stopped(wallet: string, stopped: SessionStopped): void;
  /** The session ended at its 10-day boundary: the rate due now. */
  rateIncreased(wallet: string, rate: RateDue): void;
  /** The session ended at the daily cap. */
  dailyLimitReached(wallet: string, message: string, currentDailyDuration: number): void;
  /** The Twitch stream the session ran on went offline. */
  twitchNotLive(wallet: string, message: string): void;
  /** The YouTube or Kick stream the session ran on ended: `youtube:not-live`, `kick:not-live`. */
  platformNotLive?(wallet: string, platform: 'youtube' | 'kick', message: string): void;
  /** What the user is told beside a stop (why the session stopped being valid), or that a credit is late. */
  notice(wallet: string, message: string): void;
  /** Whether the wallet has a socket on another instance (several instances behind a load balancer). */
  connectedElsewhere?(wallet: string): Promise<boolean>;
  /**
   * Runs `request` on the instance `owner` (another live instance) and answers what it answered: null when
   * it did not answer in time, or there is no transport between instances.
   */
  toInstance?(owner: string, request: SessionControl): Promise<SessionControlAnswer | null>;
}

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
  /** The database writes it counts (the benchmark reads them); its own when not given. */
  counters?: EngineCounters;
  /** Streamers and their platform accounts; over `prisma` when not given. */
  streamers?: StreamerRepository;
  /** The mining sessions' rows, owned as `instanceId`; over `prisma` when not given (tests give a fake). */
  sessionStore?: SessionStore;
  prisma: PrismaClient;
  clock: Clock;
  logger: Logger;
  tiers: TierCatalog;
  records: StreamerRecords;
  platforms: PlatformAdapters;
  events: EngineEvents;
  options: EngineOptions;
}

export interface StartRequest {
  wallet: string;
  platform: StreamPlatform;
  username: string;
}

/** A session started. */
export interface StartResult {
  startedAt: string;
  miningRate: number;
  /** The engagement factor's boost included in miningRate, in percent (0 when off). */
  engagementBoostPercent: number;
  platform: StreamPlatform;
  currentDailyDuration: number;
  dailyLimitSeconds: number;
  nextRateIncrease: string | null;
}

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
