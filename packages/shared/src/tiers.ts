import { z } from 'zod';
import { DAILY_MINING_LIMIT_SECONDS } from './constants.ts';

/** A tier as the mining API exposes it: snake_case, numbers. */
export interface Tier {
  id: number;
  name: string;
  deposit_requirement: number;
  base_multiplier: number;
  hourly_base_rate: number;
  max_multiplier: number;
  hourly_max_rate: number;
  daily_mining_limit_seconds: number;
  order_by: number;
}

const numeric = z
  .union([z.number(), z.string().trim().min(1)])
  .transform((v) => Number(v))
  .pipe(z.number().finite());
const nonNegative = numeric.pipe(z.number().nonnegative());

const tierFields = {
  id: numeric.pipe(z.number().int()),
  name: z.string().min(1),
  deposit_requirement: nonNegative,
  base_multiplier: nonNegative,
  hourly_base_rate: nonNegative,
  max_multiplier: nonNegative,
  hourly_max_rate: nonNegative,
  daily_mining_limit_seconds: numeric.pipe(z.number().int().positive()),
  order_by: numeric.pipe(z.number().int()),
};

const camelToSnake: Record<string, keyof Tier> = {
  depositRequirement: 'deposit_requirement',
  baseMultiplier: 'base_multiplier',
  hourlyBaseRate: 'hourly_base_rate',
  maxMultiplier: 'max_multiplier',
  hourlyMaxRate: 'hourly_max_rate',
  dailyMiningLimitSeconds: 'daily_mining_limit_seconds',
  orderBy: 'order_by',
};

function normaliseKeys(input: unknown): unknown {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) return input;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(input)) out[camelToSnake[key] ?? key] = value;
  return out;
}

/** Accepts camelCase or snake_case, numbers or numeric strings; yields a snake_case `Tier`. */
export const tierSchema: z.ZodType<Tier, unknown> = z.preprocess(normaliseKeys, z.object(tierFields));

/** A tier list must be an array (anything else is an invalid response); sorted ascending by order_by. */
export const tierListSchema = z
  .array(tierSchema)
  .transform((tiers) => [...tiers].sort((a, b) => a.order_by - b.order_by));

export interface DefaultTier extends Omit<Tier, 'id'> {}

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
export const DEFAULT_TIERS: readonly DefaultTier[] = DEFAULT_TIER_ROWS.map(([deposit, base, max], i) => ({
  name: `Tier ${i + 1}`,
  deposit_requirement: deposit,
  base_multiplier: 1,
  hourly_base_rate: base,
  max_multiplier: 8,
  hourly_max_rate: max,
  daily_mining_limit_seconds: DAILY_MINING_LIMIT_SECONDS,
  order_by: i + 1,
}));

/** Icon group (1, 2 or 3) for a tier by its position: tiers 1-3, 4-6, 7-9. */
export function tierIconGroup(orderBy: number): 1 | 2 | 3 {
  if (orderBy <= 3) return 1;
  if (orderBy <= 6) return 2;
  return 3;
}

/** 'Best Value' goes to the tier with the highest order_by; also the calculator's preselection. */
export function bestValueTier<T extends Pick<Tier, 'order_by'>>(tiers: readonly T[]): T | undefined {
  return tiers.reduce<T | undefined>(
    (best, t) => (best === undefined || t.order_by > best.order_by ? t : best),
    undefined,
  );
}

/** GET /tiers: the tiers as the API sends them (numbers, snake_case), ascending by order_by. */
export const tierResponseSchema = z.array(
  z.object({
    id: z.number().int(),
    name: z.string().min(1),
    deposit_requirement: z.number().nonnegative(),
    base_multiplier: z.number().nonnegative(),
    hourly_base_rate: z.number().nonnegative(),
    max_multiplier: z.number().nonnegative(),
    hourly_max_rate: z.number().nonnegative(),
    daily_mining_limit_seconds: z.number().int().positive(),
    order_by: z.number().int(),
  }) satisfies z.ZodType<Tier>,
);
