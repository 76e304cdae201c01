import { z } from 'zod';
import { isoTime } from './time.ts';

const marketDataSchema = z.object({
  price: z.number(),
  marketCap: z.number(),
  volume24h: z.number(),
  transactions: z.object({ buys: z.number().int(), sells: z.number().int() }),
});
export type MarketData = z.infer<typeof marketDataSchema>;

/** GET /api/v1/market: the server's cached reading of the configured DEX pair API. */
export const marketResponseSchema = z.object({
  /** False when no DEX pair API is configured (the calculator then uses its default price). */
  configured: z.boolean(),
  market: marketDataSchema.nullable(),
  /** 'Failed to fetch market data' or 'Invalid response format' after the last refresh failed. */
  error: z.string().nullable(),
  updatedAt: isoTime.nullable(),
});
