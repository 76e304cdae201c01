import { z } from 'zod';
import { isoTime, platformSchema, usernameSchema, walletSchema } from './common.ts';

const platformStatusSchema = z.object({
  platform: platformSchema,
  isVerified: z.boolean(),
  username: z.string().nullable(),
  /** Verified, but the platform refused its authorization (YouTube's invalid_grant): connect again. */
  reconnectNeeded: z.boolean().optional(),
});
export type PlatformStatus = z.infer<typeof platformStatusSchema>;

export const platformsResponseSchema = z.object({
  success: z.boolean(),
  platforms: z.array(platformStatusSchema),
});

/** POST /streamer-validation (a TikTok bio code) and POST /verify-streamer answers. */
export const verificationResponseSchema = z.object({
  success: z.boolean(),
  verificationCode: z.string().optional(),
  message: z.string().optional(),
  /** streamer-validation: when the code stops being accepted. */
  expiresAt: isoTime.optional(),
  /** verify-streamer: the account as now verified. */
  platform: platformSchema.optional(),
  username: z.string().optional(),
  isVerified: z.boolean().optional(),
});
/**
 * GET /twitch/auth: the implicit-grant URL the 600x800 popup opens (GET /tiktok/auth: Login Kit's). Its
 * `state` is made by the server for this attempt and must come back with the result (single use).
 */
export const twitchAuthResponseSchema = z.object({ url: z.url() });
/** The OAuth `state` as the platform returns it; the server says why a missing or unknown one is refused. */
const oauthStateSchema = z.string().trim().max(256).optional();
/** POST /tiktok/exchange-code (only when the TikTok API flag is on). */
export const tiktokExchangeCodeRequestSchema = z.strictObject({
  code: z.string().trim().min(1).max(2048),
  state: oauthStateSchema,
});
export const tiktokExchangeCodeResponseSchema = z.object({
  success: z.boolean(),
  access_token: z.string().optional(),
  message: z.string().optional(),
  username: z.string().optional(),
});
/** POST /update-streamer-username: the account after the change (a new username must be verified again). */
export const updateUsernameResponseSchema = z.object({
  success: z.boolean(),
  platform: platformSchema,
  username: z.string(),
  isVerified: z.boolean(),
});

export const streamerValidationRequestSchema = z.object({ platform: platformSchema, wallet: walletSchema });
export const verifyStreamerRequestSchema = z.object({
  platform: platformSchema,
  verificationCode: z.string().trim().max(64).optional(),
  accessToken: z.string().trim().max(4096).optional(),
  accessTokenExp: z.coerce.number().int().positive().optional(),
  /** Twitch: the state of the authorisation the token came back from. */
  state: oauthStateSchema,
});
export const updateUsernameRequestSchema = z.object({
  platform: platformSchema,
  username: usernameSchema,
});

/** Twitch popup → opener message (accepted only same-origin, with an access token). */
export const twitchAuthMessageSchema = z.object({
  type: z.literal('TWITCH_AUTH'),
  access_token: z.string().min(1),
  expires_in: z.coerce.number().int().positive().optional(),
  /** The OAuth state Twitch returned (checked by the server). */
  state: z.string().optional(),
});
