// The streaming panels' server state: the platforms query and every request a panel's button makes, as
// mutations (the pattern of bulletproof-react's features/comments/api/create-comment.ts): a request
// function, and a hook that runs it and refreshes what it changes. The panels read `isPending` for their
// busy states instead of keeping their own.
import {
  demoAccountResponseSchema,
  demoLiveResponseSchema,
  type Platform,
  platformsResponseSchema,
  twitchAuthResponseSchema,
  updateUsernameResponseSchema,
  verificationResponseSchema,
} from '@strm/shared';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
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

export const updateUsername = ({ platform, username }: { platform: Platform; username: string }) =>
  apiRequest('/update-streamer-username', updateUsernameResponseSchema, {
    method: 'POST',
    body: { platform, username },
  });

/** POST /update-streamer-username: the username a TikTok code or a Twitch authorisation is for. */
export const useUpdateUsername = () => useMutation({ mutationFn: updateUsername });

export const generateCode = (wallet: string) =>
  apiRequest('/streamer-validation', verificationResponseSchema, {
    method: 'POST',
    body: { platform: 'tiktok', wallet },
  });

/** POST /streamer-validation: a TikTok verification code for the wallet. */
export const useGenerateCode = (wallet: string) => useMutation({ mutationFn: () => generateCode(wallet) });

export interface VerifyRequest {
  platform: Platform;
  verificationCode?: string;
  accessToken?: string;
  accessTokenExp?: number;
  /** Twitch: the state of the authorisation the token came back from (checked by the server). */
  state?: string;
}

export const verifyStreamer = (body: VerifyRequest) =>
  apiRequest('/verify-streamer', verificationResponseSchema, { method: 'POST', body });

/** POST /verify-streamer; settles once the platforms' status has been read again. */
export function useVerifyStreamer(wallet: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: verifyStreamer,
    onSuccess: () => client.invalidateQueries({ queryKey: platformsQuery(wallet).queryKey }),
  });
}

export const twitchAuthUrl = () => apiRequest('/twitch/auth', twitchAuthResponseSchema);

/** GET /twitch/auth: the authorisation page to open in the popup (asked for when the button is pressed). */
export const useTwitchAuthUrl = () => useMutation({ mutationFn: twitchAuthUrl });

export const createDemoAccount = (username: string) =>
  apiRequest('/dev/demo/account', demoAccountResponseSchema, { method: 'POST', body: { username } });

/** POST /dev/demo/account (demo platform): the demo account, verified at once. */
export const useCreateDemoAccount = () => useMutation({ mutationFn: createDemoAccount });

export const setDemoLive = (on: boolean) =>
  apiRequest('/dev/demo/live', demoLiveResponseSchema, {
    method: 'PUT',
    body: { live: on, viewers: on ? 42 : 0 },
  });

/** PUT /dev/demo/live (demo platform): puts the demo account on or off air. */
export const useSetDemoLive = () => useMutation({ mutationFn: setDemoLive });
