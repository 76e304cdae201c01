import { miningStatsSchema, type Streamer, timezoneResponseSchema } from '@strm/shared';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { apiRequest } from '../../lib/api.ts';

/** The live stats' figures (GET /streamer/mining-stats): rate, next increase, the day's mining time. */
export const miningStatsQuery = (wallet: string) =>
  queryOptions({
    queryKey: ['mining-stats', wallet],
    queryFn: () =>
      apiRequest(`/streamer/mining-stats?wallet=${encodeURIComponent(wallet)}`, miningStatsSchema),
  });

export function useMiningStats(wallet: string) {
  return useQuery(miningStatsQuery(wallet));
}

export function useChangeTimezone(wallet: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (timezone: string) =>
      apiRequest('/streamer/timezone', timezoneResponseSchema, { method: 'PUT', body: { timezone } }),
    onSuccess: ({ success: _, ...answer }) => {
      client.setQueryData(['streamer', wallet], (old: { streamer: Streamer } | undefined) =>
        old ? { ...old, streamer: { ...old.streamer, ...answer } } : old,
      );
      void client.invalidateQueries({ queryKey: ['streamer', wallet] });
      void client.invalidateQueries({ queryKey: ['mining-stats', wallet] });
    },
  });
}

/** The browser's IANA time zone (Intl), or null when the runtime names none. */
export function browserTimezone(): string | null {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || null;
  } catch {
    return null;
  }
}

/**
 * First sign-in: a streamer whose zone was never set (timezoneSetAt null) gets the browser's, once. The
 * server does not count it as a change, so the two changes docs/product.md#time-zone allows remain. Its
 * failure is not the user's doing and is not shown: the zone stays UTC and can still be chosen.
 */
export function useInitialTimezone(wallet: string, streamer: Pick<Streamer, 'timezoneSetAt'>) {
  const initial = useChangeTimezone(wallet);
  const sent = useRef(false);
  const { mutate } = initial;
  useEffect(() => {
    if (sent.current || streamer.timezoneSetAt !== null) return;
    const zone = browserTimezone();
    if (!zone) return;
    sent.current = true;
    mutate(zone);
  }, [streamer.timezoneSetAt, mutate]);
  return initial;
}

/** After a tier action or a collect: balances and the streamer's record change. */
export function useRefreshAfterTransaction(wallet: string) {
  const client = useQueryClient();
  return () =>
    Promise.all(
      [
        ['token-balance', wallet],
        ['streamer', wallet],
        ['mining-stats', wallet],
      ].map((queryKey) => client.invalidateQueries({ queryKey })),
    );
}
