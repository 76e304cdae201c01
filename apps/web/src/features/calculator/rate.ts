// The calculator's hourly rate (docs/product.md#mining-calculator): the tier's whole-token rates in base
// units, the shared rate rule (@strm/shared rate.ts, the one the API credits by), and the result back in
// whole tokens for display.
import { doublingsAfterDays, fromBaseUnits, hourlyRateUnits, type Tier, toBaseUnits } from '@strm/shared';

type RateTier = Pick<Tier, 'hourly_base_rate' | 'hourly_max_rate'>;

/** Whole tokens per hour after `days` days holding the tier: base × 2^floor(days/10), capped at the max. */
export function rateAfterDays(tier: RateTier, days: number): number {
  const units = hourlyRateUnits(
    {
      hourlyBaseRateUnits: toBaseUnits(tier.hourly_base_rate),
      hourlyMaxRateUnits: toBaseUnits(tier.hourly_max_rate),
    },
    doublingsAfterDays(days),
  );
  return fromBaseUnits(units);
}
