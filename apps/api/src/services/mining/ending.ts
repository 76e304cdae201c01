// Ending a live session: credited once, in one statement, up to where it ends (never past its cap, its
// boundary or the drop of its last socket), and the wallet told. A close the database refuses is kept and
// written when it answers again.
import { fromBaseUnits, rateAt, SERVER_MESSAGES } from '@strm/shared';
import { dailyDurationAt, settle } from './accrual.ts';
import type { EngineContext, PendingClose } from './context.ts';
import type { LiveSession } from './session.ts';
import type { EndReason, RateDue } from './types.ts';

/**
 * Ends the session at `atMs` (never past its cap, boundary or the socket's drop), credits it and tells
 * the wallet. Returns the rate-increased payload when the boundary ended it.
 */
export async function endSession(
  ctx: EngineContext,
  wallet: string,
  id: number,
  atMs: number,
  reason: EndReason,
): Promise<RateDue | undefined> {
  const s = ctx.sessions.get(wallet);
  if (!s || s.id !== id) return undefined;
  ctx.remove(s);
  const { endedAtMs, minedUnits } = settle(s, atMs);
  const close: PendingClose = { session: s, endedAt: endedAtMs, mined: minedUnits, reason };
  try {
    return await writeClose(ctx, close);
  } catch (err) {
    // The database is away: the close is kept and written (credited exactly once) when it is back; the
    // session stays this instance's meanwhile, so nobody closes it at an older checkpoint.
    ctx.deps.logger.error({ err, wallet, id }, 'closing a mining session failed; written when possible');
    ctx.writes.closes.set(id, close);
    ctx.deps.events.notice(wallet, SERVER_MESSAGES.creditDelayed);
    return undefined;
  }
}

/** Maintenance start: every live session ends at this instant. */
export async function endAll(ctx: EngineContext, reason: EndReason): Promise<number> {
  const now = ctx.nowMs();
  const live = [...ctx.sessions.values()];
  await Promise.all(live.map((s) => endSession(ctx, s.wallet, s.id, now, reason)));
  return live.length;
}

/** Writes a close and tells the wallet; throws when the database did not take it. */
export async function writeClose(ctx: EngineContext, close: PendingClose): Promise<RateDue | undefined> {
  const { session: s, endedAt, mined, reason } = close;
  const { wallet, id } = s;
  const pending = await ctx.store.close(id, new Date(endedAt), mined, reason);
  ctx.writes.closes.delete(id);
  ctx.counters.closes++;
  if (pending === null) {
    // Another instance took it over (this one had lost its lease): that one speaks for it.
    ctx.deps.logger.warn({ wallet, id }, 'a session this instance no longer owned was not closed here');
    return undefined;
  }
  const { events } = ctx.deps;
  events.stopped(wallet, {
    duration: Math.floor((endedAt - s.startedAtMs) / 1000),
    amountMined: fromBaseUnits(mined),
    pendingReward: fromBaseUnits(pending),
    reason,
  });
  if (reason === 'not-live' && s.platform === 'twitch') {
    events.twitchNotLive(wallet, SERVER_MESSAGES.twitchNotLive);
  }
  if (reason === 'not-live' && (s.platform === 'youtube' || s.platform === 'kick')) {
    events.platformNotLive?.(wallet, s.platform, SERVER_MESSAGES[`${s.platform}NotLive`]);
  }
  if (reason === 'daily-limit') {
    const daily = dailyDurationAt(s, endedAt);
    s.day = daily.day;
    events.dailyLimitReached(wallet, SERVER_MESSAGES.dailyLimitReached, daily.seconds);
  }
  if (reason === 'rate-increased') {
    const payload = rateNow(ctx, s, endedAt);
    events.rateIncreased(wallet, payload);
    return payload;
  }
  return undefined;
}

/** The rate due at `nowMs` for the session's tier and activation, and when it next doubles. */
export function rateNow(
  ctx: EngineContext,
  s: Pick<LiveSession, 'tierName' | 'activatedAt'>,
  nowMs: number,
): RateDue {
  const tier = ctx.deps.tiers.get(s.tierName);
  const due = tier ? rateAt(tier, s.activatedAt, new Date(nowMs)) : null;
  return {
    status: 'success' as const,
    miningRate: due ? fromBaseUnits(due.rateUnitsPerHour) : 0,
    nextRateIncrease: due?.nextRateIncreaseAt?.toISOString() ?? null,
  };
}
