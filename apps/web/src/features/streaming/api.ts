import {
  type Platform,
  platformsResponseSchema,
  twitchAuthResponseSchema,
  updateUsernameResponseSchema,
  verificationResponseSchema,
} from '@strm/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../lib/api.ts';

/** The wallet's TikTok and Twitch usernames and whether each is verified (GET /streamer-platforms). */
export const platformsQuery = (wallet: string) =>
  queryOptions({
    queryKey: ['platforms', wallet],
    queryFn: () =>
      apiRequest(`/streamer-platforms?wallet=${encodeURIComponent(wallet)}`, platformsResponseSchema),
  });

export function usePlatforms(wallet: string) {
  return useQuery(platformsQuery(wallet));
}

export const updateUsername = (platform: Platform, username: string) =>
  apiRequest('/update-streamer-username', updateUsernameResponseSchema, {
    method: 'POST',
    body: { platform, username },
  });

export const generateCode = (wallet: string) =>
  apiRequest('/streamer-validation', verificationResponseSchema, {
    method: 'POST',
    body: { platform: 'tiktok', wallet },
  });

export const verifyStreamer = (body: {
  platform: Platform;
  verificationCode?: string;
  accessToken?: string;
  accessTokenExp?: number;
  /** Twitch: the state of the authorisation the token came back from (checked by the server). */
  state?: string;
}) => apiRequest('/verify-streamer', verificationResponseSchema, { method: 'POST', body });

export const twitchAuthUrl = () => apiRequest('/twitch/auth', twitchAuthResponseSchema);
