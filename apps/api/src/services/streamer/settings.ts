// The streamer's own settings and the admins' pending-reward adjustment (with its audit record).
import { fromBaseUnits, PRODUCT, SERVER_MESSAGES, TIMEZONE_MAX_CHANGES, toBaseUnits } from '@strm/shared';
import type { Clock } from '../../clock.ts';
import type { PrismaClient } from '../../db/index.ts';
import { DomainError } from '../../errors.ts';

/**
 * PUT /streamer/timezone. The first setting (the browser's zone at first sign-in) is not a change; after
 * that two changes are allowed, the third refused (timezoneChangedTimes above 1). Refused while live, since
 * the live session's day boundaries depend on it.
 */
export async function changeTimezone(
  deps: { prisma: PrismaClient; clock: Clock; isLive(wallet: string): Promise<boolean> },
  wallet: string,
  timezone: string,
) {
  if (await deps.isLive(wallet))
    throw new DomainError('timezone_while_live', SERVER_MESSAGES.timezoneWhileLive);
  const now = deps.clock.now();
  return deps.prisma.$transaction(async (tx) => {
    await tx.streamer.upsert({ where: { wallet }, create: { wallet }, update: {} });
    const [row] = await tx.$queryRaw<{ timezone: string; changed: number; setAt: Date | null }[]>`
      SELECT timezone, timezone_changed_times AS changed, timezone_set_at AS "setAt"
        FROM streamers WHERE wallet = ${wallet} FOR UPDATE`;
    const answer = (s: { timezone: string; timezoneChangedTimes: number; timezoneSetAt: Date | null }) => ({
      timezone: s.timezone,
      timezoneChangedTimes: s.timezoneChangedTimes,
      timezoneSetAt: (s.timezoneSetAt ?? now).toISOString(),
    });
    if (!row?.setAt) {
      return answer(await tx.streamer.update({ where: { wallet }, data: { timezone, timezoneSetAt: now } }));
    }
    if (row.timezone === timezone) {
      return answer({ timezone, timezoneChangedTimes: row.changed, timezoneSetAt: row.setAt });
    }
    if (row.changed > TIMEZONE_MAX_CHANGES)
      throw new DomainError('timezone_limit', SERVER_MESSAGES.timezoneLimit);
    return answer(
      await tx.streamer.update({
        where: { wallet },
        data: { timezone, timezoneChangedTimes: { increment: 1 } },
      }),
    );
  });
}

export const ownPendingRewardRefused = 'Admins cannot adjust their own pending reward';
export const adjustmentAboveMax = (max: number) =>
  `An adjustment cannot raise a pending reward above ${max.toLocaleString('en-US')} ${PRODUCT}`;

/**
 * POST /streamer/pending-reward (admins only): sets the pending reward, recording who, from what, to what.
 * Never the admin's own, and never raised above `maxAmount` (PENDING_REWARD_ADJUSTMENT_MAX); lowering one
 * that is above it is allowed.
 */
export async function adjustPendingReward(
  deps: { prisma: PrismaClient; clock: Clock; maxAmount: number },
  input: { admin: string; wallet: string; amount: number; reason?: string },
) {
  if (input.admin === input.wallet) throw new DomainError('own_pending_reward', ownPendingRewardRefused);
  const units = toBaseUnits(input.amount);
  const maxUnits = toBaseUnits(deps.maxAmount);
  return deps.prisma.$transaction(async (tx) => {
    await tx.streamer.upsert({
      where: { wallet: input.wallet },
      create: { wallet: input.wallet },
      update: {},
    });
    const [row] = await tx.$queryRaw<{ pending: bigint }[]>`
      SELECT pending_reward_units AS pending FROM streamers WHERE wallet = ${input.wallet} FOR UPDATE`;
    const previous = row?.pending ?? 0n;
    if (units > maxUnits && units > previous)
      throw new DomainError('adjustment_above_max', adjustmentAboveMax(deps.maxAmount));
    await tx.streamer.update({ where: { wallet: input.wallet }, data: { pendingRewardUnits: units } });
    const audit = await tx.pendingRewardAdjustment.create({
      data: {
        wallet: input.wallet,
        adminWallet: input.admin,
        previousUnits: previous,
        newUnits: units,
        reason: input.reason,
        createdAt: deps.clock.now(),
      },
    });
    return {
      wallet: input.wallet,
      previousPendingReward: fromBaseUnits(previous),
      pendingReward: fromBaseUnits(units),
      adjustmentId: audit.id,
    };
  });
}
