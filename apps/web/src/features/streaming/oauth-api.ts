// YouTube's and Kick's requests: the authorization URL of this attempt, and the code's exchange
// (which verifies the account and refreshes the platforms' status).
import { type OAuthCodePlatform, oauthExchangeResponseSchema, twitchAuthResponseSchema } from '@strm/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../lib/api.ts';
import { platformsQuery } from './api.ts';

/** GET /<platform>/auth: the consent page to open in the popup (asked for when the button is pressed). */
export const useOAuthAuthUrl = (platform: OAuthCodePlatform) =>
  useMutation({ mutationFn: () => apiRequest(`/${platform}/auth`, twitchAuthResponseSchema) });

/** POST /<platform>/exchange-code; settles once the platforms' status has been read again. */
export function useOAuthExchange(platform: OAuthCodePlatform, wallet: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: { code: string; state?: string }) =>
      apiRequest(`/${platform}/exchange-code`, oauthExchangeResponseSchema, { method: 'POST', body }),
    onSuccess: () => client.invalidateQueries({ queryKey: platformsQuery(wallet).queryKey }),
  });
}
