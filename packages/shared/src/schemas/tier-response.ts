import { z } from 'zod';
import type { Tier } from './tiers.ts';

// What GET /tiers sends, as the API's OpenAPI description states it; the web app parses the answer with the
// more lenient tierListSchema (tiers.ts), so this schema is apart from the module its landing page loads.

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
