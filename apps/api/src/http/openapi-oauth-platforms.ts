// YouTube's and Kick's operations (routes/oauth-platforms.ts, issue 40), listed by http/openapi.ts.
import {
  OAUTH_CODE_PLATFORMS,
  oauthExchangeRequestSchema,
  oauthExchangeResponseSchema,
  twitchAuthResponseSchema,
} from '@strm/shared';
import { z } from 'zod';
import type { Operation } from './openapi-operation.ts';

const NAME = { youtube: 'YouTube', kick: 'Kick' } as const;

export const OAUTH_PLATFORM_OPERATIONS: readonly Operation[] = [
  ...OAUTH_CODE_PLATFORMS.flatMap((platform): Operation[] => [
    {
      method: 'get',
      path: `/${platform}/auth`,
      tag: 'Platforms',
      auth: 'wallet',
      summary: `${NAME[platform]}'s authorization URL for this attempt (single-use state, PKCE S256 challenge)`,
      ok: { schema: twitchAuthResponseSchema },
      errors: { 503: `${NAME[platform]} is not configured on this server` },
    },
    {
      method: 'post',
      path: `/${platform}/exchange-code`,
      tag: 'Platforms',
      auth: 'wallet',
      summary: `Exchange ${NAME[platform]}'s authorization code (with the PKCE verifier kept by the server): verifies the account it names`,
      body: oauthExchangeRequestSchema,
      ok: { schema: oauthExchangeResponseSchema },
      errors: {
        401: `${NAME[platform]} refused the code or the authorization`,
        409: 'The account belongs to another wallet, or the streamer is live',
        502: `${NAME[platform]} failed`,
        503: `${NAME[platform]} is unreachable or not configured`,
      },
    },
  ]),
  {
    method: 'post',
    path: '/kick/webhook',
    tag: 'Platforms',
    summary: "Kick's webhook (livestream.status.updated), signed with Kick's RSA key; no bearer token",
    auth: 'none',
    body: z.looseObject({}),
    ok: { description: 'Accepted (or a repeat)' },
    errors: {
      400: 'Headers or body missing or malformed',
      403: 'Bad signature or too old',
      404: 'Kick webhooks are off (KICK_WEBHOOKS)',
    },
    bareErrors: true,
  },
];
