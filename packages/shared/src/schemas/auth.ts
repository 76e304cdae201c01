import { z } from 'zod';
import { walletSchema } from './common.ts';

/** GET /nonce's query: the wallet about to sign in. */
export const nonceQuerySchema = z.object({ publicKey: walletSchema });

/** GET /nonce?publicKey=…: a single-use nonce and the exact Sign-In-With-Solana message to sign. */
export const nonceResponseSchema = z.object({
  nonce: z.string(),
  message: z.string(),
  expiresAt: z.iso.datetime(),
});

export const authenticateRequestSchema = z.object({
  publicKey: walletSchema,
  /** The wallet's ed25519 signature of the sign-in message, as an array of byte numbers. */
  signedMessage: z.array(z.number().int().min(0).max(255)).length(64),
  nonce: z.string().min(16).max(128),
});
export type AuthenticateRequest = z.infer<typeof authenticateRequestSchema>;

export const authenticateResponseSchema = z.object({ token: z.string() });
