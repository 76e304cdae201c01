import { clientConfigSchema } from '@strm/shared';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../lib/api.ts';

/** This deployment's settings (RPC endpoint, demo platform, explorer and DEX links), read once. */
export function useClientConfig() {
  return useQuery({
    queryKey: ['client-config'],
    queryFn: () => apiRequest('/client-config', clientConfigSchema),
    staleTime: Number.POSITIVE_INFINITY,
  });
}

/** An explorer page for `address` from the `{address}` template, or null when none is configured. */
export function addressExplorerUrl(template: string | null | undefined, address: string): string | null {
  return template ? template.replace('{address}', encodeURIComponent(address)) : null;
}
