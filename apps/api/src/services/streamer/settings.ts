// The streamer's own settings (the admins' pending-reward adjustments are in adjustments.ts).
import { SERVER_MESSAGES, TIMEZONE_MAX_CHANGES } from '@strm/shared';
import type { Clock } from '../../clock.ts';
import type { PrismaClient } from '../../db/index.ts';
import type { StreamerRepository } from '../../db/streamer-repository.ts';
import { DomainError } from '../../errors.ts';

/**
 * PUT /streamer/timezone. The first setting (the browser's zone at first sign-in) is not a change; after
 * that two changes are allowed, the third refused (timezoneChangedTimes above 1). Refused while live, since
 * the live session's day boundaries depend on it.
 */
export async function changeTimezone(
  deps: {
    prisma: PrismaClient;
    streamers: StreamerRepository;
    clock: Clock;
    isLive(wallet: string): Promise<boolean>;
  },
  wallet: string,
  timezone: string,
) {
  if (await deps.isLive(wallet))
    throw new DomainError('timezone_while_live', SERVER_MESSAGES.timezoneWhileLive);
  const now = deps.clock.now();
  return deps.prisma.$transaction(async (tx) => {
    await deps.streamers.ensureStreamer(wallet, tx);
    const [row] = await tx.$queryRaw<{ timezone: string; changed: number; setAt: Date | null }[]>`
      SELECT timezone, timezone_changed_times AS changed, timezone_set_at AS "setAt"
        FROM streamers WHERE wallet = ${wallet} FOR UPDATE`;
    const answer = (s: { timezone: string; timezoneChangedTimes: number; timezoneSetAt: Date | null }) => ({
      timezone: s.timezone,
      timezoneChangedTimes: s.timezoneChangedTimes,
      timezoneSetAt: (s.timezoneSetAt ?? now).toISOString(),
    });
    if (!row?.setAt) {
      return answer(await deps.streamers.setFirstTimezone(tx, wallet, timezone, now));
    }
    if (row.timezone === timezone) {
      return answer({ timezone, timezoneChangedTimes: row.changed, timezoneSetAt: row.setAt });
    }
    if (row.changed > TIMEZONE_MAX_CHANGES)
      throw new DomainError('timezone_limit', SERVER_MESSAGES.timezoneLimit);
    return answer(await deps.streamers.changeTimezone(tx, wallet, timezone));
  });
}
