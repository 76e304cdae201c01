// Sessions across instances: each open session is owned by one instance (store.ts). Sessions of dead or
// departed instances are taken over by the instance their wallet's socket reached, and resumed from their
// row; those nobody takes within the grace period are closed at their last checkpoint.
import { fromBaseUnits, rateAt } from '@strm/shared';
import { minedUntil } from './accrual.ts';
import type { EngineContext } from './context.ts';
import type { TierActivation } from '../../rpc/streamer-records.ts';
import { endSession } from './ending.ts';
import { buildSession, checkpointOf, type LiveSession } from './session.ts';
import type { SessionRow } from './store.ts';
import {
  accountProblem,
  RecordWatch,
  recordChanged,
  recordProblem,
  tellProblem,
  watchPlatform,
} from './validity.ts';

/**
 * Sessions of dead (or departed) instances: those whose wallet is connected here are taken over and go
 * on from where they are (accrual is computed from their start, so the outage is not lost); those nobody
 * took within the grace period are closed at their last checkpoint (at most one interval lost). The grace
 * counts from the moment an instance could take them: this instance's start, or the owner's last sign of
 * life (its last checkpoint, its lease) when it died later.
 */
export async function sweep(ctx: EngineContext): Promise<number> {
  const { lease, events, logger } = ctx.deps;
  // After a database outage the lease has lapsed: re-take it before taking anything over.
  if (lease && !lease.held) await lease.renew();
  await adoptFor(ctx, ctx.idle);
  if (lease && !lease.mayCloseOrphans) return 0;
  // Their streamers reconnect to an instance that has started: until this one has been up for the grace
  // period, a session another instance left (a crash, a restart, a deploy) is still waiting for its socket.
  if (ctx.nowMs() - ctx.runningSinceMs < ctx.deps.options.gracePeriodMs) return 0;
  let closed = 0;
  for (const row of await ctx.store.orphans(ctx.deps.options.gracePeriodMs)) {
    const mined = minedUntil(
      { startedAtMs: row.startedAt.getTime(), rateUnitsPerHour: row.rateUnitsPerHour },
      row.accruedUntil.getTime(),
    );
    const pending = await ctx.store.close(
      row.id,
      row.accruedUntil,
      mined,
      'server-restart',
      row.ownerInstance,
    );
    if (pending === null) continue; // taken over or closed meanwhile
    closed++;
    events.stopped(row.wallet, {
      duration: Math.floor((row.accruedUntil.getTime() - row.startedAt.getTime()) / 1000),
      amountMined: fromBaseUnits(mined),
      pendingReward: fromBaseUnits(pending),
      reason: 'disconnected',
    });
  }
  if (closed) logger.info({ closed }, 'sessions nobody ran were credited up to their last checkpoint');
  return closed;
}

/**
 * Takes over the open sessions of these wallets that nobody runs, and resumes them here. After a restart
 * every streamer reconnects within seconds: their records are watched first, then read in one batched RPC
 * (100 a request), and the sessions resumed side by side, not one round trip after another.
 */
export async function adoptFor(ctx: EngineContext, wallets: Iterable<string>): Promise<void> {
  // Only wallets with no session here, running or starting, can have one to take over.
  const free: string[] = [];
  for (const w of wallets) if (!ctx.sessions.has(w) && !ctx.starting.has(w)) free.push(w);
  const rows = await ctx.store.adopt(free);
  if (!rows.length) return;
  // Watched before they are read: a change in between is buffered, not missed.
  const watches = rows.map((row) => new RecordWatch(ctx, row.wallet));
  const records = await ctx.deps.records.readMany(rows.map((row) => row.wallet)).catch((err: unknown) => {
    // Each session then reads its own record (and fails on its own when the chain is away).
    ctx.deps.logger.warn(
      { err, sessions: rows.length },
      'reading the records of sessions to take over failed',
    );
    return undefined;
  });
  await Promise.all(
    rows.map(async (row, i) => {
      const watch = watches[i]!;
      try {
        await resume(ctx, row, watch, records?.get(row.wallet));
      } catch (err) {
        watch.stop();
        // It stays ours in the database and is closed at its last checkpoint by the orphan rule once
        // released: release it now so that happens.
        ctx.deps.logger.error({ err, wallet: row.wallet, id: row.id }, 'taking over a session failed');
        await ctx.store.release(row.id).catch(() => {});
      }
    }),
  );
}

/**
 * Runs a session another instance started, from its row: same start, rate, cap and boundary. The stake
 * and the platform account are checked again (watched first, then read): a session whose stake or
 * account is gone ends at its last checkpoint, the last moment it was known to be valid.
 */
async function resume(
  ctx: EngineContext,
  row: SessionRow,
  watch: RecordWatch,
  /** The record read after `watch` began (null: none); undefined: read it here. */
  known: TierActivation | null | undefined,
): Promise<void> {
  const { wallet } = row;
  const { deps } = ctx;
  const tier = deps.tiers.get(row.tierName);
  const [record, streamer, account] = await Promise.all([
    known === undefined ? deps.records.read(wallet) : known,
    ctx.streamers.streamer(wallet),
    ctx.streamers.account(wallet, row.platform),
  ]);
  if (!tier || !streamer?.tierActivatedAt || !account) throw new Error('session context is gone');
  const startedAtMs = row.startedAt.getTime();
  const usedBeforeMs = await ctx.store.usedToday(wallet, startedAtMs, streamer.timezone);
  const rate = rateAt(tier, streamer.tierActivatedAt, row.startedAt);
  const now = ctx.nowMs();
  const session = buildSession(
    {
      id: row.id,
      wallet,
      platform: row.platform,
      account,
      tier,
      activatedAt: streamer.tierActivatedAt,
      rateUnitsPerHour: row.rateUnitsPerHour,
      nextRateIncreaseAt: rate.nextRateIncreaseAt,
      startedAtMs,
      validAtMs: row.accruedUntil.getTime(),
      usedBeforeMs,
      timezone: streamer.timezone,
    },
    {
      nowMs: now,
      firstUpdateAtMs: now,
      checkpointIntervalMs: deps.options.checkpointIntervalMs,
      connected: ctx.connected(wallet),
    },
  );
  ctx.add(session);
  watch.handOver(session);
  watchPlatform(ctx, session, { wallet, username: account.username, externalId: account.externalId });
  deps.logger.info({ wallet, id: row.id }, 'took over a mining session');
  const problem = recordProblem(session, record) ?? accountProblem(session, account, row.platform);
  if (problem) {
    deps.logger.warn(
      { wallet, id: row.id, problem: problem.reason },
      'a taken-over session was no longer valid',
    );
    tellProblem(ctx, session, problem);
    await endSession(ctx, wallet, session.id, session.validAtMs, problem.reason);
    return;
  }
  session.validAtMs = now;
  for (const change of watch.buffered) recordChanged(ctx, session, change);
}

/** The grace period ran out here: end the session, unless the wallet is connected to another instance. */
export async function graceExpired(ctx: EngineContext, s: LiveSession): Promise<void> {
  const elsewhere = await ctx.deps.events.connectedElsewhere?.(s.wallet).catch(() => false);
  if (!ctx.isCurrent(s) || s.disconnectedAtMs == null) return;
  if (elsewhere) {
    // Checkpoint, then let the instance holding the socket take it over (its next sweep). Not dropped while
    // that is under way (a second grace check would end it); dropped again if the hand-over failed and no
    // socket came back here meanwhile, so that the grace check asked again later hands it over then.
    const now = ctx.nowMs();
    const droppedAtMs = s.disconnectedAtMs;
    s.disconnectedAtMs = null;
    try {
      await ctx.store.checkpoint([checkpointOf(s, now)]);
      if (await ctx.store.release(s.id)) ctx.forget(s.id);
    } catch (err) {
      if (ctx.isCurrent(s) && !ctx.connections.get(s.wallet)) s.disconnectedAtMs = droppedAtMs;
      throw err;
    }
    return;
  }
  await endSession(ctx, s.wallet, s.id, s.disconnectedAtMs, 'disconnected');
}
