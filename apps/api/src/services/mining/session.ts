// A live session as the engine holds it in memory, built in one place whether it starts here or is taken
// over from another instance's row.
import { fromBaseUnits, type StreamPlatform } from '@strm/shared';
import type { CatalogTier } from '../tiers/catalog.ts';
import { type AccrualState, creditedUntil, minedUntil } from './accrual.ts';
import { dailyCapAt } from './daily.ts';
import type { Checkpoint } from './store.ts';
import type { UpdateOutlet } from './types.ts';

export interface LiveSession extends AccrualState {
  id: number;
  wallet: string;
  platform: StreamPlatform;
  username: string;
  /** The platform account as it was verified when the session opened: it may not change while open. */
  externalId: string | null;
  tierName: string;
  activatedAt: Date;
  /** The last moment the stake and the platform account were confirmed (a re-read ending it ends here). */
  validAtMs: number;
  dailyLimitSeconds: number;
  /** The rate in tokens per hour, as every update carries it (fixed with the rate). */
  miningRate: number;
  nextUpdateAtMs: number;
  nextCheckpointAtMs: number;
  unwatch: Array<() => void>;
  /**
   * Whether this instance runs it now (set by EngineContext's add and remove): the queue's work on a session
   * that ended, was dropped or replaced is skipped without a lookup by wallet.
   */
  running: boolean;
  /** Where its updates go (the socket layer's, kept between updates: EngineEvents.outlet). */
  outlet?: UpdateOutlet | undefined;
}

/** Work due on a session at a moment (the engine's queue). */
export type Due = { at: number; session: LiveSession; kind: 'update' | 'checkpoint' | 'end' | 'grace' };

export interface SessionFacts {
  id: number;
  wallet: string;
  platform: StreamPlatform;
  account: { username: string; externalId: string | null };
  tier: Pick<CatalogTier, 'name' | 'dailyMiningLimitSeconds'>;
  activatedAt: Date;
  rateUnitsPerHour: bigint;
  /** When the rate next doubles (null: max rate reached). */
  nextRateIncreaseAt: Date | null;
  startedAtMs: number;
  validAtMs: number;
  usedBeforeMs: number;
  timezone: string;
}

export interface SessionTimes {
  nowMs: number;
  firstUpdateAtMs: number;
  checkpointIntervalMs: number;
  /** Whether a socket of the wallet is connected here now (else the grace period runs from now). */
  connected: boolean;
}

export function buildSession(f: SessionFacts, t: SessionTimes): LiveSession {
  const limitMs = f.tier.dailyMiningLimitSeconds * 1000;
  return {
    id: f.id,
    wallet: f.wallet,
    platform: f.platform,
    username: f.account.username,
    externalId: f.account.externalId,
    tierName: f.tier.name,
    activatedAt: f.activatedAt,
    rateUnitsPerHour: f.rateUnitsPerHour,
    miningRate: fromBaseUnits(f.rateUnitsPerHour),
    startedAtMs: f.startedAtMs,
    validAtMs: f.validAtMs,
    usedBeforeMs: f.usedBeforeMs,
    timezone: f.timezone,
    dailyLimitSeconds: f.tier.dailyMiningLimitSeconds,
    capAtMs: dailyCapAt(f.startedAtMs, f.usedBeforeMs, limitMs, f.timezone),
    boundaryAtMs: f.nextRateIncreaseAt?.getTime() ?? null,
    nextUpdateAtMs: t.firstUpdateAtMs,
    nextCheckpointAtMs: t.nowMs + t.checkpointIntervalMs,
    disconnectedAtMs: t.connected ? null : t.nowMs,
    // Every field from the start, `day` and `outlet` too: a property added later gives the session another
    // hidden class, and the engine's per-update reads of sessions of several shapes go megamorphic.
    day: undefined,
    unwatch: [],
    running: false,
    outlet: undefined,
  };
}

/** The session's accrual up to `nowMs`, as the database keeps it. */
export function checkpointOf(s: LiveSession, nowMs: number): Checkpoint {
  const until = creditedUntil(s, nowMs);
  return { id: s.id, accruedUntil: new Date(until), minedUnits: minedUntil(s, until) };
}
