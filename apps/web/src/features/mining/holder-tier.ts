// A wallet's holder tier (by its token balance), shown in the account panel; not a mining tier.

const HOLDER_TIER_THRESHOLDS = { pro: 500_000, elite: 1_000_000 } as const;

export type HolderTier = 'starter' | 'pro' | 'elite';

/** Holder tier from a token balance in whole tokens (no token account reads as 0: starter). */
export function holderTier(balance: number): HolderTier {
  if (balance >= HOLDER_TIER_THRESHOLDS.elite) return 'elite';
  if (balance >= HOLDER_TIER_THRESHOLDS.pro) return 'pro';
  return 'starter';
}
