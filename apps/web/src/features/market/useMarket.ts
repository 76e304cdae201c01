import { INTERVALS_MS, SERVER_MESSAGES } from '@strm/shared';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../lib/api.ts';

export const MARKET_MESSAGES = {
  title: 'Market Statistics',
  notConfigured: 'Market data is not available: no DEX pair is configured for this deployment.',
  loading: 'Loading market data...',
  unreachable: SERVER_MESSAGES.marketFetchFailed,
} as const;

/** The server's cached market reading, refreshed every 30 s (docs/product.md#constants). */
export function useMarket() {
  return useQuery({
    queryKey: ['market'],
    // On the landing page: the schema is loaded on demand (lib/api.ts).
    queryFn: () =>
      apiRequest('/market', () => import('@strm/shared/schemas/market').then((m) => m.marketResponseSchema)),
    refetchInterval: INTERVALS_MS.marketRefresh,
  });
}

/** The price the calculator starts from: the market's when known, else its default. */
export function marketPrice(data: ReturnType<typeof useMarket>['data']): number | null {
  return data?.market?.price ?? null;
}
