import { streamerResponseSchema } from '@strm/shared';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../lib/api.ts';

/** The signed-in wallet's streamer record (GET /streamer): pending reward, isAdmin, time zone. */
export function useStreamer(wallet: string | null) {
  return useQuery({
    queryKey: ['streamer', wallet],
    queryFn: () => apiRequest(`/streamer?wallet=${encodeURIComponent(wallet!)}`, streamerResponseSchema),
    enabled: wallet !== null,
    select: (res) => res.streamer,
  });
}

/** Whether the signed-in wallet is an admin; false while unknown or on error. */
export function useIsAdmin(wallet: string | null): boolean {
  return useStreamer(wallet).data?.isAdmin ?? false;
}
