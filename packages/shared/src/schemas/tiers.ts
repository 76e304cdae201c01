import { z } from 'zod';

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
