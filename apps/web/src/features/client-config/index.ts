import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { apiRequest } from '../../lib/api.ts';

const clientConfigQuery = queryOptions({
  queryKey: ['client-config'],
  // On the landing page: the schema is loaded on demand (lib/api.ts).
  queryFn: () =>
    apiRequest('/client-config', () =>
      import('@strm/shared/schemas/status').then((m) => m.clientConfigSchema),
    ),
  staleTime: Number.POSITIVE_INFINITY,
});

/** This deployment's settings (RPC endpoint, demo platform, explorer and DEX links), read once. */
export function useClientConfig() {
  return useQuery(clientConfigQuery);
}

/** The settings, waited for when they have not arrived yet (a wallet transaction needs the RPC endpoint). */
export function useLoadClientConfig() {
  const client = useQueryClient();
  return useCallback(() => client.ensureQueryData(clientConfigQuery), [client]);
}

/** An explorer page for `address` from the `{address}` template, or null when none is configured. */
export function addressExplorerUrl(template: string | null | undefined, address: string): string | null {
  return template ? template.replace('{address}', encodeURIComponent(address)) : null;
}
