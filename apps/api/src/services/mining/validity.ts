// Whether a live session is still valid: the stake it runs on (the chain's streamer record) and the
// platform account it opened with, watched while it runs and read again at every checkpoint. A session
// no longer valid ends at the last moment it was confirmed.
import { SERVER_MESSAGES, type StreamPlatform } from '@strm/shared';
import type { PlatformAccountRef } from '../../platforms/adapter.ts';
import { normaliseUsername } from '../../platforms/adapter.ts';
import type { RecordChange, TierActivation } from '../../rpc/streamer-records.ts';
import type { EngineContext } from './context.ts';
import { endSession } from './ending.ts';
import type { LiveSession } from './session.ts';
import type { EndReason } from './types.ts';

/** How long checkpoint re-reads of the stake and the platform account are gathered into one batch. */
const REVALIDATION_BATCH_MS = 10_000;

/** Why a session stops being valid, and what its user is told. */
export interface Problem {
  reason: EndReason;
  message: string;
}

export type AccountState = { isVerified: boolean; username: string; externalId: string | null } | null;

/** The stake the session runs on is gone or changed (null: it holds). */
export function recordProblem(session: LiveSession, record: TierActivation | null): Problem | null {
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
export function accountProblem(
  session: LiveSession,
  account: AccountState,
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
export function tellProblem(ctx: EngineContext, session: LiveSession, problem: Problem): void {
  ctx.deps.events.notice(session.wallet, problem.message);
}

/** A change of the live session's streamer record: anything but the record it started on ends it. */
export function recordChanged(ctx: EngineContext, session: LiveSession, change: RecordChange): void {
  if (!ctx.isCurrent(session)) return;
  const problem = recordProblem(session, change.record);
  if (!problem) return;
  // At the change's time on chain when known (never later than now): nothing is credited after it.
  const now = ctx.nowMs();
  const at = Math.min(now, change.atMs ?? now);
  ctx.track(endSession(ctx, session.wallet, session.id, at, problem.reason));
}

/**
 * The wallet's streamer record watched from before it is read, so a change landing at any point of a start
 * or a take-over is seen: changes are kept (`buffered`) until a session takes the watch over, then each
 * ends it when it changes its stake. `stop()` ends a watch no session took.
 */
export class RecordWatch {
  readonly buffered: RecordChange[] = [];
  private onChange: (change: RecordChange) => void = (change) => {
    this.buffered.push(change);
  };
  private readonly unwatch: () => void;
  private handedOver = false;

  constructor(
    private readonly ctx: EngineContext,
    wallet: string,
  ) {
    this.unwatch = ctx.deps.records.watch(wallet, (change) => this.onChange(change));
  }

  /** The session's from now: it ends the watch when it ends. */
  handOver(session: LiveSession): void {
    this.handedOver = true;
    session.unwatch.push(this.unwatch);
    this.onChange = (change) => recordChanged(this.ctx, session, change);
  }

  stop(): void {
    if (!this.handedOver) this.unwatch();
  }
}

/** Ends the session when the stream goes offline, or the platform cannot confirm it is live. */
export function watchPlatform(ctx: EngineContext, session: LiveSession, account: PlatformAccountRef): void {
  const { wallet } = session;
  session.unwatch.push(
    ctx.adapter(session.platform).watch(account, (s) => {
      if (s.live || !ctx.isCurrent(session)) return;
      if (s.unconfirmed)
        tellProblem(ctx, session, { reason: 'not-live', message: SERVER_MESSAGES.liveUnconfirmed });
      ctx.track(endSession(ctx, wallet, session.id, ctx.nowMs(), 'not-live'));
    }),
  );
}

/** Starts re-reading the sessions whose checkpoint came due, once the batch has gathered long enough. */
export function revalidateWhenDue(ctx: EngineContext, nowMs: number): void {
  const { revalidation } = ctx;
  if (revalidation.running || !revalidation.pending.length || nowMs < revalidation.nextAtMs) return;
  revalidation.nextAtMs = nowMs + Math.min(REVALIDATION_BATCH_MS, ctx.deps.options.checkpointIntervalMs);
  const batch = revalidation.pending;
  revalidation.pending = [];
  revalidation.running = revalidate(ctx, batch)
    .catch((err: unknown) => {
      // The chain or the database is away: the sessions go on; the next checkpoint reads them again
      // (and a restored chain watch reads every watched record).
      ctx.deps.logger.warn({ err, sessions: batch.length }, 'checking live sessions failed');
    })
    .finally(() => {
      revalidation.running = undefined;
    });
}

/**
 * Every checkpoint also re-reads the stake (one request per 100 sessions) and the platform accounts (one
 * query): a session no longer valid ends at the last moment it was confirmed.
 */
async function revalidate(ctx: EngineContext, sessions: LiveSession[]): Promise<void> {
  const wallets = sessions.map((s) => s.wallet);
  const [records, accounts] = await Promise.all([
    ctx.deps.records.readMany(wallets),
    ctx.streamers.accountsOf(wallets),
  ]);
  // Looked up by wallet and platform (a batch is thousands of sessions: no scan per session).
  const byKey = new Map(accounts.map((a) => [`${a.platform}:${a.wallet}`, a]));
  const now = ctx.nowMs();
  for (const s of sessions) {
    if (!ctx.isCurrent(s)) continue;
    const account = byKey.get(`${s.platform}:${s.wallet}`) ?? null;
    const problem = recordProblem(s, records.get(s.wallet) ?? null) ?? accountProblem(s, account, s.platform);
    if (!problem) {
      s.validAtMs = now;
      continue;
    }
    ctx.deps.logger.warn(
      { wallet: s.wallet, id: s.id, problem: problem.reason },
      'a live session is no longer valid',
    );
    tellProblem(ctx, s, problem);
    await endSession(ctx, s.wallet, s.id, s.validAtMs, problem.reason);
  }
}
