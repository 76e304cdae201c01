// Forwarding a session request to the instance that owns the session, and the live view's codec for the
// trip (JSON between instances: no bigint, no Date).
import type { EngineContext } from './context.ts';
import type { LiveView, LiveViewWire, SessionControl, SessionControlAnswer } from './types.ts';

/** Runs the request at its owner: its answer, or null when it did not answer (logged). */
export async function forward(
  ctx: EngineContext,
  owner: string,
  request: SessionControl,
): Promise<SessionControlAnswer | null> {
  const { events, logger } = ctx.deps;
  const answer = await events.toInstance?.(owner, request).catch((err: unknown) => {
    logger.warn({ err, wallet: request.wallet }, 'forwarding a session request failed');
    return null;
  });
  if (!answer)
    logger.warn({ wallet: request.wallet, owner, kind: request.kind }, 'session owner did not answer');
  return answer ?? null;
}

export function encodeView(v: LiveView): LiveViewWire {
  return {
    platform: v.platform,
    tierName: v.tierName,
    rateUnitsPerHour: v.rateUnitsPerHour.toString(),
    startedAtMs: v.startedAt.getTime(),
    untilMs: v.until.getTime(),
    minedUnits: v.minedUnits.toString(),
    currentDailyDuration: v.currentDailyDuration,
    boundaryAtMs: v.boundaryAt?.getTime() ?? null,
  };
}

export function decodeView(v: LiveViewWire): LiveView {
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
