import { DAILY_MINING_LIMIT_SECONDS } from './constants.ts';
import type { Tier } from './schemas/tiers.ts';

const DEFAULT_TIER_ROWS: ReadonlyArray<[number, number, number]> = [
  [1000, 0.25, 2],
  [5000, 0.5, 4],
  [10_000, 1, 8],
  [25_000, 1.5, 12],
  [50_000, 2, 16],
  [100_000, 3, 24],
  [250_000, 4, 32],
  [500_000, 6, 48],
  [1_000_000, 8, 64],
];

/** The default tier table of the design card (deposit in whole tokens, rates in tokens per hour). */
export const DEFAULT_TIERS: readonly Omit<Tier, 'id'>[] = DEFAULT_TIER_ROWS.map(
  ([deposit, base, max], i) => ({
    name: `Tier ${i + 1}`,
    deposit_requirement: deposit,
    base_multiplier: 1,
    hourly_base_rate: base,
    max_multiplier: 8,
    hourly_max_rate: max,
    daily_mining_limit_seconds: DAILY_MINING_LIMIT_SECONDS,
    order_by: i + 1,
  }),
);
