import { z } from 'zod';
import { PLATFORMS, STREAM_PLATFORMS } from '../constants.ts';

// Building blocks of the other areas' schemas, and the error body every API error has.

/** A base58 Solana address (32-44 characters); the API also decodes it to 32 bytes. */
export const walletSchema = z
  .string()
  .trim()
  .regex(/^[1-9A-HJ-NP-Za-km-z]{32,44}$/, 'Invalid wallet address');

/** A base58 transaction signature (64 bytes, 86-88 characters). */
export const signatureSchema = z
  .string()
  .trim()
  .regex(/^[1-9A-HJ-NP-Za-km-z]{64,88}$/, 'Invalid transaction signature');

// isoTime is in time.ts: the market's schema (on the web app's landing page) needs it without the rest.
export { isoTime } from './time.ts';

export const platformSchema = z.enum(PLATFORMS);
export type Platform = z.infer<typeof platformSchema>;
/** Platforms a mining session can run on (the demo platform exists only in local configurations). */
export const streamPlatformSchema = z.enum(STREAM_PLATFORMS);
export type StreamPlatform = z.infer<typeof streamPlatformSchema>;

/** A platform username as a user types it (an optional leading @). */
export const usernameSchema = z
  .string()
  .trim()
  .min(1, 'Username is required')
  .max(64)
  .regex(/^@?[A-Za-z0-9_.]+$/, 'Invalid username');

/** Every API error: a stable machine code and the message a user may see. */
export const apiErrorSchema = z.object({ error: z.string(), message: z.string() });
export type ApiError = z.infer<typeof apiErrorSchema>;
