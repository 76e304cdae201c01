// Requests on a wallet's live session (stop, increase-rate, view), run wherever the session runs: here
// when this instance owns it, else at its owner, else (its owner gone) here after taking it over.
import { fromBaseUnits, rateAt, SERVER_MESSAGES, type StreamPlatform } from '@strm/shared';
import type { EngineContext } from './context.ts';
import { endSession, rateNow } from './ending.ts';
import { DomainError } from '../../errors.ts';
import { OWNER_UNREACHABLE } from './errors.ts';
import { encodeView, forward } from './forwarding.ts';
import { adoptFor } from './ownership.ts';
import type { EndReason, RateDue, SessionControl, SessionControlAnswer } from './types.ts';
import { liveView } from './view.ts';

async function control(ctx: EngineContext, request: SessionControl): Promise<SessionControlAnswer> {
  const { wallet } = request;
  if (ctx.sessions.has(wallet)) return controlHere(ctx, request);
  const open = await ctx.store.openSessionOf(wallet);
  if (!open) return { outcome: 'not-live' };
  if (open.ownerInstance && open.ownerAlive && open.ownerInstance !== ctx.deps.instanceId) {
    const answer = await forward(ctx, open.ownerInstance, request);
    if (answer) return answer;
    throw new DomainError('owner_unreachable', OWNER_UNREACHABLE);
  }
  await adoptFor(ctx, [wallet]);
  return controlHere(ctx, request);
}

/** A request another instance forwarded: answered when this instance owns the session, else null. */
export async function controlForwarded(
  ctx: EngineContext,
  owner: string,
  request: SessionControl,
): Promise<SessionControlAnswer | null> {
  if (owner !== ctx.deps.instanceId) return null;
  try {
    return await controlHere(ctx, request);
  } catch (err) {
    if (err instanceof DomainError) {
      return { outcome: 'refused', code: err.code, message: err.message, details: err.details };
    }
    throw err;
  }
}

async function controlHere(ctx: EngineContext, request: SessionControl): Promise<SessionControlAnswer> {
  const session = ctx.sessions.get(request.wallet);
  if (!session) return { outcome: 'not-live' };
  if (request.kind === 'view') {
    const v = liveView(ctx, request.wallet);
    return v ? { outcome: 'view', view: encodeView(v) } : { outcome: 'not-live' };
  }
  if (request.kind === 'stop') {
    if (request.platform && request.platform !== session.platform) return { outcome: 'not-live' };
    await endSession(ctx, session.wallet, session.id, ctx.nowMs(), request.reason);
    return { outcome: 'stopped' };
  }
  const now = ctx.nowMs();
  if (session.boundaryAtMs == null || now < session.boundaryAtMs) {
    return { outcome: 'refused', code: 'rate_not_due', message: SERVER_MESSAGES.rateNotDue, details: {} };
  }
  const payload =
    (await endSession(ctx, session.wallet, session.id, session.boundaryAtMs, 'rate-increased')) ??
    rateNow(ctx, session, now);
  return { outcome: 'rate-increased', payload };
}

/**
 * stop-stream / leave-room (only a session on `platform` when given) / tier deactivation, wherever the
 * session runs. Answers whether a live session was stopped.
 */
export async function stopSession(
  ctx: EngineContext,
  wallet: string,
  reason: EndReason,
  platform?: StreamPlatform,
): Promise<boolean> {
  const answer = await control(ctx, { kind: 'stop', wallet, reason, ...(platform ? { platform } : {}) });
  return answer.outcome === 'stopped';
}

/** increase-rate: answered with rate-increased once the session's 10-day boundary has passed. */
export async function increaseRate(ctx: EngineContext, wallet: string): Promise<RateDue> {
  const answer = await control(ctx, { kind: 'increase-rate', wallet });
  if (answer.outcome === 'rate-increased') return answer.payload;
  if (answer.outcome === 'refused') throw new DomainError(answer.code, answer.message, answer.details);
  const now = ctx.nowMs();
  // Not live: the session may just have ended at the boundary; answer with the rate due now.
  const last = await ctx.store.lastSession(wallet);
  const streamer = await ctx.streamers.streamer(wallet);
  const tier = last && ctx.deps.tiers.get(last.tierName);
  if (!last || !tier || !streamer?.tierActivatedAt)
    throw new DomainError('not_mining', SERVER_MESSAGES.notMining);
  const due = rateAt(tier, streamer.tierActivatedAt, new Date(now));
  if (due.rateUnitsPerHour <= last.rateUnitsPerHour)
    throw new DomainError('rate_not_due', SERVER_MESSAGES.rateNotDue);
  return {
    status: 'success',
    miningRate: fromBaseUnits(due.rateUnitsPerHour),
    nextRateIncrease: due.nextRateIncreaseAt?.toISOString() ?? null,
  };
}

/**
 * Whether the wallet has a live session here or on another instance, or one is starting here: every
 * "not while live" rule counts a start in progress (one starting elsewhere re-reads the account after
 * its session opens, and ends if it changed).
 */
export async function liveAnywhere(ctx: EngineContext, wallet: string): Promise<boolean> {
  return ctx.sessions.has(wallet) || ctx.starting.has(wallet) || (await ctx.store.hasOpen(wallet));
}
