// The live session's figures for REST (mining-stats), here or from the instance that runs it.
import { accrue } from './accrual.ts';
import type { EngineContext } from './context.ts';
import { decodeView, forward } from './forwarding.ts';
import type { LiveView } from './types.ts';

/** The open session's figures now if it runs here, or null. */
export function liveView(ctx: EngineContext, wallet: string): LiveView | null {
  const s = ctx.sessions.get(wallet);
  if (!s) return null;
  const now = accrue(s, ctx.nowMs());
  s.day = now.day;
  return {
    platform: s.platform,
    tierName: s.tierName,
    rateUnitsPerHour: s.rateUnitsPerHour,
    startedAt: new Date(s.startedAtMs),
    until: new Date(now.untilMs),
    minedUnits: now.minedUnits,
    currentDailyDuration: now.currentDailyDuration,
    boundaryAt: s.boundaryAtMs == null ? null : new Date(s.boundaryAtMs),
  };
}

/**
 * The open session's figures now wherever it runs (mining-stats through any instance), or null. A dead
 * owner's session is not taken over for a read: it is not live until an instance runs it again.
 */
export async function liveViewAnywhere(ctx: EngineContext, wallet: string): Promise<LiveView | null> {
  const here = liveView(ctx, wallet);
  if (here) return here;
  const open = await ctx.store.openSessionOf(wallet);
  if (!open?.ownerInstance || !open.ownerAlive || open.ownerInstance === ctx.deps.instanceId) return null;
  const answer = await forward(ctx, open.ownerInstance, { kind: 'view', wallet });
  return answer?.outcome === 'view' ? decodeView(answer.view) : null;
}
