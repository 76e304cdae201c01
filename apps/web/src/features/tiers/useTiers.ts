import { useQuery } from '@tanstack/react-query';
import { ApiRequestError, apiRequest, InvalidAnswerError } from '../../lib/api.ts';

/** Tier fetches (docs/product.md#constants, tier list retries). */
const TIER_FETCH_RETRY = { maxAttempts: 3, baseDelayMs: 1000, invalidFormatDelayMs: 1000 } as const;

export const LOADING_TIERS = 'Loading tiers...';
export const TIERS_NOT_FOUND = 'Tiers not found';
export const TIERS_FAILED = 'Failed to fetch tiers after multiple attempts';

/**
 * At most 3 attempts; 404 stops at once; an invalid list retries after a flat delay
 * (docs/product.md#tier-messages).
 */
export function shouldRetryTiers(failureCount: number, error: unknown): boolean {
  if (error instanceof ApiRequestError && error.status === 404) return false;
  return failureCount < TIER_FETCH_RETRY.maxAttempts - 1;
}

export function tiersRetryDelay(attempt: number, error: unknown): number {
  if (error instanceof InvalidAnswerError) return TIER_FETCH_RETRY.invalidFormatDelayMs;
  return TIER_FETCH_RETRY.baseDelayMs * 2 ** attempt;
}

export function tiersErrorMessage(error: unknown): string {
  return error instanceof ApiRequestError && error.status === 404 ? TIERS_NOT_FOUND : TIERS_FAILED;
}

export function useTiers() {
  return useQuery({
    queryKey: ['tiers'],
    // On the landing page: the schema is loaded on demand (lib/api.ts).
    queryFn: () =>
      apiRequest('/tiers', () => import('@strm/shared/schemas/tiers').then((m) => m.tierListSchema)),
    retry: shouldRetryTiers,
    retryDelay: tiersRetryDelay,
    staleTime: 5 * 60_000,
  });
}
