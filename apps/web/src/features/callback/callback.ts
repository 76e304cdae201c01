import {
  OAUTH_CODE_MESSAGE_TYPE,
  type OAuthCodePlatform,
  oauthStatePlatform,
  TWITCH_AUTH_MESSAGE_TYPE,
} from '@strm/shared';

export const NO_CODE_OR_TOKEN = 'No authorization code or token found';
export const EXCHANGE_FAILED = 'Failed to exchange code for token';
export const TIKTOK_AUTH_FAILED = 'Failed to complete TikTok authorization';

export type CallbackMessage =
  | { type: typeof TWITCH_AUTH_MESSAGE_TYPE; access_token: string; expires_in?: number; state?: string }
  | { type: 'TIKTOK_AUTH'; access_token: string }
  | { type: typeof OAUTH_CODE_MESSAGE_TYPE; platform: OAuthCodePlatform; code: string; state: string }
  | { type: 'AUTH_ERROR'; error: string };

export type CallbackInput =
  | { kind: 'twitch'; accessToken: string; expiresIn?: number; state?: string }
  | { kind: 'tiktok'; code: string; state?: string }
  | { kind: 'oauth-code'; platform: OAuthCodePlatform; code: string; state: string }
  | { kind: 'none' };

/**
 * Twitch returns the token in the hash (implicit flow); TikTok returns a code in the query. Both return the
 * `state` the server put in the authorize URL; it goes back to the server, which checks it.
 */
export function readCallback(url: URL): CallbackInput {
  const hash = new URLSearchParams(url.hash.replace(/^#/, ''));
  const accessToken = hash.get('access_token');
  if (accessToken) {
    const expires = Number(hash.get('expires_in'));
    const state = hash.get('state');
    return {
      kind: 'twitch',
      accessToken,
      ...(Number.isFinite(expires) && expires > 0 ? { expiresIn: expires } : {}),
      ...(state ? { state } : {}),
    };
  }
  const code = url.searchParams.get('code');
  const state = url.searchParams.get('state');
  // YouTube's and Kick's states carry their platform: the dashboard exchanges their code.
  const platform = oauthStatePlatform(state);
  if (code && platform && state) return { kind: 'oauth-code', platform, code, state };
  if (code) return { kind: 'tiktok', code, ...(state ? { state } : {}) };
  return { kind: 'none' };
}

/** Resolves the message for the opener; a TikTok code is exchanged by our API first. */
export async function callbackMessage(
  input: CallbackInput,
  exchangeCode: (
    code: string,
    state: string | undefined,
  ) => Promise<{ success: boolean; access_token?: string; message?: string }>,
): Promise<CallbackMessage> {
  switch (input.kind) {
    case 'twitch':
      return {
        type: TWITCH_AUTH_MESSAGE_TYPE,
        access_token: input.accessToken,
        ...(input.expiresIn ? { expires_in: input.expiresIn } : {}),
        ...(input.state ? { state: input.state } : {}),
      };
    case 'tiktok':
      try {
        const result = await exchangeCode(input.code, input.state);
        if (!result.success || !result.access_token)
          return { type: 'AUTH_ERROR', error: result.message ?? EXCHANGE_FAILED };
        return { type: 'TIKTOK_AUTH', access_token: result.access_token };
      } catch {
        return { type: 'AUTH_ERROR', error: TIKTOK_AUTH_FAILED };
      }
    case 'oauth-code':
      return {
        type: OAUTH_CODE_MESSAGE_TYPE,
        platform: input.platform,
        code: input.code,
        state: input.state,
      };
    case 'none':
      return { type: 'AUTH_ERROR', error: NO_CODE_OR_TOKEN };
  }
}
