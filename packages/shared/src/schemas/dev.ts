import { z } from 'zod';
import { usernameSchema, walletSchema } from './common.ts';

// Local development only: the local chain's faucet and the demo platform's account.

/** The local chain's faucet (local mode only): SOL for fees and STRM to stake. */
export const faucetRequestSchema = z.object({
  wallet: walletSchema,
  strm: z.number().int().min(0).max(2_000_000).default(1_100_000),
  sol: z.number().min(0).max(10).default(2),
});
/** POST /dev/demo/account (demo platform only): the demo account, verified at once. */
export const demoAccountRequestSchema = z.strictObject({
  username: usernameSchema,
});
export const demoAccountResponseSchema = z.object({
  success: z.boolean(),
  platform: z.literal('demo'),
  username: z.string(),
  isVerified: z.boolean(),
});
/** PUT /dev/demo/live (demo platform only): put the demo account on or off air. */
export const demoLiveRequestSchema = z.strictObject({
  live: z.boolean(),
  viewers: z.number().int().min(0).max(1_000_000).optional(),
});
export const demoLiveResponseSchema = z.object({
  success: z.boolean(),
  username: z.string(),
  live: z.boolean(),
  viewers: z.number().int().nonnegative(),
});
export const faucetResponseSchema = z.object({
  wallet: walletSchema,
  sol: z.number(),
  strm: z.number(),
  tokenAccount: z.string(),
});
