import { streamerResponseSchema, tokenBalanceResponseSchema } from '@strm/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../lib/api.ts';

/** The signed-in wallet's streamer record (GET /streamer): pending reward, isAdmin, time zone. */
export const streamerQuery = (wallet: string | null) =>
  queryOptions({
    queryKey: ['streamer', wallet],
    queryFn: () => apiRequest(`/streamer?wallet=${encodeURIComponent(wallet!)}`, streamerResponseSchema),
    enabled: wallet !== null,
    select: (res) => res.streamer,
  });

export function useStreamer(wallet: string | null) {
  return useQuery(streamerQuery(wallet));
}

/** Whether the signed-in wallet is an admin; false while unknown or on error. */
export function useIsAdmin(wallet: string | null): boolean {
  return useStreamer(wallet).data?.isAdmin ?? false;
}

/** The signed-in wallet's token balance as the server reads it from the chain (GET /token-balance). */
export const tokenBalanceQuery = (wallet: string | null) =>
  queryOptions({
    queryKey: ['token-balance', wallet],
    queryFn: () => apiRequest('/token-balance', tokenBalanceResponseSchema),
    enabled: wallet !== null,
    retry: 1,
  });

export function useTokenBalance(wallet: string | null) {
  return useQuery(tokenBalanceQuery(wallet));
}
