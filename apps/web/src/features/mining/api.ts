import { miningStatsSchema, tokenBalanceResponseSchema, type Streamer } from '@strm/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { apiRequest } from '../../lib/api.ts';

/** The wallet's token balance as the server reads it from the chain. */
export function useTokenBalance(wallet: string) {
  return useQuery({
    queryKey: ['token-balance', wallet],
    queryFn: () =>
      apiRequest(`/token-balance?wallet=${encodeURIComponent(wallet)}`, tokenBalanceResponseSchema),
  });
}

export function useMiningStats(wallet: string) {
  return useQuery({
    queryKey: ['mining-stats', wallet],
    queryFn: () =>
      apiRequest(`/streamer/mining-stats?wallet=${encodeURIComponent(wallet)}`, miningStatsSchema),
  });
}

const timezoneAnswer = z.object({ timezone: z.string(), timezoneChangedTimes: z.number() });

export function useChangeTimezone(wallet: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (timezone: string) =>
      apiRequest('/streamer/timezone', timezoneAnswer, { method: 'PUT', body: { timezone } }),
    onSuccess: (answer) => {
      client.setQueryData(['streamer', wallet], (old: { streamer: Streamer } | undefined) =>
        old ? { ...old, streamer: { ...old.streamer, ...answer } } : old,
      );
      void client.invalidateQueries({ queryKey: ['streamer', wallet] });
      void client.invalidateQueries({ queryKey: ['mining-stats', wallet] });
    },
  });
}

/** After a tier action or a collect: balances and the streamer's record change. */
export function useRefreshAfterChainAction(wallet: string) {
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
