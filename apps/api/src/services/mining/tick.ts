// The clock of the live sessions: each tick does the work due by now (updates, boundaries, caps, grace
// periods, checkpoints) and starts the database work that follows behind it.
import { fromBaseUnits } from '@strm/shared';
import { accrue, scheduledEnd } from './accrual.ts';
import { flushWhenDue, queueCheckpoint } from './checkpoints.ts';
import { type EngineContext, WRITE_RETRY_MS } from './context.ts';
import { endSession } from './ending.ts';
import { graceExpired } from './ownership.ts';
import { checkpointOf, type Due, type LiveSession } from './session.ts';
import { revalidateWhenDue } from './validity.ts';

/**
 * Does everything due by now: updates, boundaries, caps, grace periods, checkpoints (batched). The
 * scan is synchronous; database work (ends, the checkpoint batch) runs behind it, so a slow database
 * never delays the next tick's updates (at 10,000 sessions an awaited checkpoint held them by seconds).
 */
export function tick(ctx: EngineContext): void {
  try {
    const now = ctx.nowMs();
    for (let due = ctx.queue.popDue(now); due; due = ctx.queue.popDue(now)) {
      if (due.session.running) run(ctx, due.session, due, now);
    }
    // One checkpoint statement at a time; rows due meanwhile wait for the next one. After a failure the
    // next attempt waits (the database is away), then writes what was kept.
    flushWhenDue(ctx);
    revalidateWhenDue(ctx, now);
  } catch (err) {
    ctx.deps.logger.error({ err }, 'mining tick failed');
  }
}

function run(ctx: EngineContext, s: LiveSession, due: Due, now: number): void {
  const { options, logger } = ctx.deps;
  switch (due.kind) {
    // The popped entry is queued again at its next time (no new object per update).
    case 'update':
      update(ctx, s, now);
      s.nextUpdateAtMs = due.at + options.updateIntervalMs;
      if (s.nextUpdateAtMs <= now) s.nextUpdateAtMs = now + options.updateIntervalMs;
      due.at = s.nextUpdateAtMs;
      ctx.queue.push(due);
      break;
    case 'checkpoint':
      queueCheckpoint(ctx, checkpointOf(s, now));
      ctx.revalidation.pending.push(s);
      s.nextCheckpointAtMs = now + options.checkpointIntervalMs;
      due.at = s.nextCheckpointAtMs;
      ctx.queue.push(due);
      break;
    case 'end': {
      const end = scheduledEnd(s);
      if (end && end.at <= now) ctx.track(endSession(ctx, s.wallet, s.id, end.at, end.reason));
      break;
    }
    case 'grace':
      if (s.disconnectedAtMs != null && s.disconnectedAtMs + options.gracePeriodMs <= now) {
        ctx.track(
          graceExpired(ctx, s).catch((err: unknown) => {
            // The database is away: asked again later (the session is credited up to the drop).
            logger.warn({ err, wallet: s.wallet }, 'ending a dropped session failed');
            ctx.queue.push({ ...due, at: ctx.nowMs() + WRITE_RETRY_MS.max });
          }),
        );
      }
      break;
  }
}

/** The session's figures to its wallet (none while its sockets are away). */
function update(ctx: EngineContext, s: LiveSession, now: number): void {
  if (s.disconnectedAtMs != null) return;
  const accrual = accrue(s, now);
  s.day = accrual.day;
  const figures = {
    duration: accrual.seconds,
    minedAmount: fromBaseUnits(accrual.minedUnits),
    miningRate: s.miningRate,
    platform: s.platform,
    currentDailyDuration: accrual.currentDailyDuration,
  };
  // The wallet's sockets as the socket layer holds them, kept between updates: no lookup of the wallet's
  // room and sockets by name each time (at 10,000 live sessions those lookups were a tenth of the engine's
  // own time per update).
  let outlet = s.outlet;
  if (!outlet?.open) outlet = s.outlet = ctx.deps.events.outlet?.(s.wallet);
  if (outlet) outlet.update(figures);
  else ctx.deps.events.update(s.wallet, figures);
}
