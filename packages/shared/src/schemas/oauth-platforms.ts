// YouTube Live and Kick: verified by an OAuth 2.0/2.1 authorization-code flow with PKCE. The
// server makes the state (prefixed with the platform, so /callback knows where the code goes) and keeps the
// code_verifier; the popup hands the code and the state to the dashboard, which has the server exchange them.
import { z } from 'zod';
import { OAUTH_CODE_PLATFORMS } from '../constants.ts';

export const oauthCodePlatformSchema = z.enum(OAUTH_CODE_PLATFORMS);
export type OAuthCodePlatform = z.infer<typeof oauthCodePlatformSchema>;

/** The popup's message to the dashboard that opened it (accepted only from the same origin). */
export const OAUTH_CODE_MESSAGE_TYPE = 'OAUTH_CODE';
export const oauthCodeMessageSchema = z.object({
  type: z.literal(OAUTH_CODE_MESSAGE_TYPE),
  platform: oauthCodePlatformSchema,
  code: z.string().min(1),
  state: z.string().optional(),
});
export type OAuthCodeMessage = z.infer<typeof oauthCodeMessageSchema>;

/** The platform a state was made for (`youtube.…`, `kick.…`), or null (Twitch's and TikTok's have none). */
export function oauthStatePlatform(state: string | null | undefined): OAuthCodePlatform | null {
  const prefix = state?.split('.', 1)[0];
  return oauthCodePlatformSchema.safeParse(prefix).success ? (prefix as OAuthCodePlatform) : null;
}

/** POST /youtube/exchange-code and POST /kick/exchange-code. */
export const oauthExchangeRequestSchema = z.strictObject({
  code: z.string().trim().min(1).max(2048),
  state: z.string().trim().max(256).optional(),
});
/** The account as now verified (the username is the platform's: the YouTube handle, the Kick channel slug). */
export const oauthExchangeResponseSchema = z.object({
  success: z.boolean(),
  message: z.string(),
  platform: oauthCodePlatformSchema,
  username: z.string(),
  isVerified: z.literal(true),
});
