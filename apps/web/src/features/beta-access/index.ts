import { betaAccessResponseSchema } from '@strm/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../lib/api.ts';

/** check_beta_access for the signed-in wallet. */
export const betaAccessQuery = (wallet: string | null) =>
  queryOptions({
    queryKey: ['beta-access', wallet],
    queryFn: () => apiRequest('/beta-access', betaAccessResponseSchema),
    enabled: wallet !== null,
    retry: 1,
  });

/** check_beta_access for the signed-in wallet; an error reads as no access (docs/product.md#beta-access). */
export function useBetaAccess(wallet: string | null): { hasAccess: boolean; isPending: boolean } {
  const query = useQuery(betaAccessQuery(wallet));
  return { hasAccess: query.data?.hasAccess ?? false, isPending: query.isPending };
}
