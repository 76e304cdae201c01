// Starting a session (start-stream) and the room it streams in (join-room): every rule is checked here,
// against the chain, the platform and the database, before a session opens, and once more right after.
import { fromBaseUnits, rateAt, SERVER_MESSAGES, type StreamPlatform } from '@strm/shared';
import type { LiveStatus, PlatformAccountRef } from '../../platforms/adapter.ts';
import { normaliseUsername, platformRoom } from '../../platforms/adapter.ts';
import type { RecordChange, TierActivation } from '../../rpc/streamer-records.ts';
import { type EngineContext, platformLabel } from './context.ts';
import { engagementBoostPermille } from './engagement.ts';
import { DomainError } from '../../errors.ts';
import { oauthPlatformRefusal } from '../../platforms/oauth-code-accounts.ts';
import { buildSession, type LiveSession } from './session.ts';
import { OpenSessionExists } from './store.ts';
import type { StartRequest, StartResult } from './types.ts';
import { accountProblem, type Problem, RecordWatch, recordProblem, watchPlatform } from './validity.ts';

async function verifiedAccount(
  ctx: EngineContext,
  wallet: string,
  platform: StreamPlatform,
  username?: string,
) {
  const account = await ctx.streamers.accountWithStreamer(wallet, platform);
  if (!account?.isVerified)
    throw new DomainError('platform_not_verified', SERVER_MESSAGES[`${platform}NotVerified`]);
  if (username !== undefined && normaliseUsername(username) !== normaliseUsername(account.username)) {
    throw new DomainError('platform_not_verified', SERVER_MESSAGES[`${platform}NotVerified`]);
  }
  const ref: PlatformAccountRef = { wallet, username: account.username, externalId: account.externalId };
  return { ...ref, streamer: account.streamer };
}

/** join-room: the wallet's verified account on the platform and its live state now. */
export async function room(ctx: EngineContext, wallet: string, platform: StreamPlatform) {
  const account = await verifiedAccount(ctx, wallet, platform);
  const status = await liveStatus(ctx, platform, account, true);
  return {
    platform,
    room: platformRoom(platform, account.username),
    username: account.username,
    isLive: status.live,
    viewers: status.viewersUnknown ? null : status.viewers,
  };
}

async function liveStatus(
  ctx: EngineContext,
  platform: StreamPlatform,
  account: PlatformAccountRef,
  forRoom = false,
): Promise<LiveStatus> {
  try {
    const adapter = ctx.adapter(platform);
    // join-room reads what is known when the adapter keeps it (YouTube's quota: docs/platforms-youtube-kick.md#youtube-live).
    if (forRoom && adapter.roomStatus) return await adapter.roomStatus(account);
    return await adapter.liveStatus(account);
  } catch (err) {
    if (err instanceof DomainError) throw err;
    // YouTube's quota, an authorization to renew: the platform's own message.
    const told = oauthPlatformRefusal(err);
    if (told) throw told;
    ctx.deps.logger.warn({ err, platform }, 'platform live status unavailable');
    throw new DomainError('platform_connect_failed', `Failed to connect to ${platformLabel(platform)} Live`);
  }
}

async function readTierActivation(
  ctx: EngineContext,
  wallet: string,
  platform: StreamPlatform,
): Promise<TierActivation> {
  const record = await ctx.deps.records.read(wallet).catch((err: unknown) => {
    ctx.deps.logger.warn({ err }, 'streamer record unreadable');
    throw new DomainError('tier_read_failed', SERVER_MESSAGES.tierReadFailed);
  });
  if (!record) throw new DomainError('no_tier', SERVER_MESSAGES[`${platform}NoTier`]);
  return record;
}

/** start-stream: every rule is checked here, against the chain, the platform and the database. */
export async function startSession(ctx: EngineContext, request: StartRequest): Promise<StartResult> {
  const { wallet, platform } = request;
  const { deps } = ctx;
  if (ctx.maintenance) throw new DomainError('maintenance', SERVER_MESSAGES.maintenanceActive);
  if (ctx.sessions.has(wallet) || ctx.starting.has(wallet)) {
    throw new DomainError('already_mining', SERVER_MESSAGES.alreadyMining);
  }
  ctx.starting.add(wallet);
  // The record is watched before it is read: a deactivation landing at any point of the start is seen.
  const watch = new RecordWatch(ctx, wallet);
  try {
    if (!(await deps.records.ready(deps.options.chainWatchWaitMs ?? 5000))) {
      deps.logger.warn({ wallet }, 'chain watch not subscribed; start refused');
      throw new DomainError('tier_read_failed', SERVER_MESSAGES.tierReadFailed);
    }
    // The account (with its streamer row: one query) and the chain's record, side by side.
    const [accountResult, recordResult] = await Promise.allSettled([
      verifiedAccount(ctx, wallet, platform, request.username),
      readTierActivation(ctx, wallet, platform),
    ]);
    // The verified account is checked first, as the client does.
    if (accountResult.status === 'rejected') throw accountResult.reason;
    if (recordResult.status === 'rejected') throw recordResult.reason;
    const account = accountResult.value;
    const record = recordResult.value;
    const tier = deps.tiers.get(record.tierName);
    if (!tier) throw new DomainError('tier_not_found', SERVER_MESSAGES.tierNotFound);
    const status = await liveStatus(ctx, platform, account);
    if (!status.live) {
      if (platform === 'twitch') throw new DomainError('twitch_not_live', SERVER_MESSAGES.twitchNotLive);
      if (platform === 'youtube' || platform === 'kick')
        throw new DomainError(`${platform}_not_live`, SERVER_MESSAGES[`${platform}NotLive`]);
      throw new DomainError('not_live', SERVER_MESSAGES.notLive);
    }
    const { streamer } = account;
    if (
      streamer.tierName !== record.tierName ||
      streamer.tierActivatedAt?.getTime() !== record.activatedAt.getTime()
    ) {
      // The mirror of the chain's record (GET /streamer, increase-rate) follows the truth.
      await ctx.streamers.mirrorTierActivation(wallet, record.tierName, record.activatedAt);
    }
    if (ctx.maintenance) throw new DomainError('maintenance', SERVER_MESSAGES.maintenanceActive);

    const now = ctx.nowMs();
    const usedBeforeMs = await ctx.store.usedToday(wallet, now, streamer.timezone);
    if (usedBeforeMs >= tier.dailyMiningLimitSeconds * 1000) {
      throw new DomainError('daily_limit_reached', SERVER_MESSAGES.dailyLimitReached, {
        currentDailyDuration: Math.floor(usedBeforeMs / 1000),
      });
    }
    const boost = engagementBoostPermille(deps.options.engagement, status.viewers);
    const rate = rateAt(tier, record.activatedAt, new Date(now), boost);
    let id: number;
    try {
      id = await ctx.store.open({
        wallet,
        platform,
        tierName: tier.name,
        rateUnitsPerHour: rate.rateUnitsPerHour,
        startedAt: new Date(now),
      });
    } catch (err) {
      if (err instanceof OpenSessionExists)
        throw new DomainError('already_mining', SERVER_MESSAGES.alreadyMining);
      throw err;
    }
    ctx.counters.opens++;
    const session = buildSession(
      {
        id,
        wallet,
        platform,
        account,
        tier,
        activatedAt: record.activatedAt,
        rateUnitsPerHour: rate.rateUnitsPerHour,
        nextRateIncreaseAt: rate.nextRateIncreaseAt,
        startedAtMs: now,
        validAtMs: now,
        usedBeforeMs,
        timezone: streamer.timezone,
      },
      {
        nowMs: now,
        firstUpdateAtMs: now + deps.options.updateIntervalMs,
        checkpointIntervalMs: deps.options.checkpointIntervalMs,
        connected: ctx.connected(wallet),
      },
    );
    // Open now (a rename or a verification elsewhere sees it): read the stake and the account once more.
    // What changed since they were first read ends the session where it began, nothing credited.
    const problem = await recheckOpened(ctx, session, watch.buffered);
    if (problem) {
      await ctx.store.close(id, new Date(now), 0n, problem.reason).catch((err: unknown) => {
        deps.logger.error({ err, wallet, id }, 'closing a refused session failed');
      });
      throw new DomainError('session_invalid', problem.message);
    }
    ctx.add(session);
    watch.handOver(session);
    watchPlatform(ctx, session, account);
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
    watch.stop();
    ctx.starting.delete(wallet);
  }
}

/** After the row is open: the buffered chain changes, the record read again and the account read again. */
async function recheckOpened(
  ctx: EngineContext,
  session: LiveSession,
  buffered: RecordChange[],
): Promise<Problem | null> {
  const { wallet, platform } = session;
  const [record, account] = await Promise.all([
    ctx.deps.records.read(wallet).catch((err: unknown) => {
      ctx.deps.logger.warn({ err, wallet }, 'streamer record unreadable after the session opened');
      return undefined;
    }),
    ctx.streamers.account(wallet, platform),
  ]);
  if (record === undefined) {
    return { reason: 'tier-deactivated', message: SERVER_MESSAGES.tierReadFailed };
  }
  for (const change of [...buffered, { record }]) {
    const problem = recordProblem(session, change.record);
    if (problem) return problem;
  }
  return accountProblem(session, account, platform);
}
