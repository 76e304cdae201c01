// YouTube's and Kick's endpoints (docs/platforms-youtube-kick.md): the authorization URL of this attempt, the
// code's exchange (which verifies the account the platform names), and Kick's webhook. Every route but the
// webhook acts on the signed-in wallet with beta access.
import {
  OAUTH_CODE_PLATFORMS,
  type OAuthCodePlatform,
  oauthExchangeRequestSchema,
  oauthExchangeResponseSchema,
  twitchAuthResponseSchema,
} from '@strm/shared';
import { Router } from 'express';
import { z } from 'zod';
import type { AppDeps } from '../deps.ts';
import { requireAccess, walletOf } from '../http/auth.ts';
import { route } from '../http/openapi-route.ts';
import type { Services } from '../services/index.ts';

const NAME = { youtube: 'YouTube', kick: 'Kick' } as const satisfies Record<OAuthCodePlatform, string>;

const perPlatform = OAUTH_CODE_PLATFORMS.map((platform) => ({
  platform,
  getAuth: route({
    method: 'get',
    path: `/${platform}/auth`,
    tag: 'Platforms',
    auth: 'wallet',
    summary: `${NAME[platform]}'s authorization URL for this attempt (single-use state, PKCE S256 challenge)`,
    ok: { schema: twitchAuthResponseSchema },
    errors: { 503: `${NAME[platform]} is not configured on this server` },
  }),
  postExchange: route({
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
  }),
}));

const postKickWebhook = route({
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
});

export function oauthPlatformsRouter(
  deps: Pick<AppDeps, 'clock' | 'config' | 'prisma'>,
  services: Pick<Services, 'platforms' | 'oauthAccounts' | 'access'>,
): Router {
  const router = Router();
  const { platforms } = services;
  const accounts = services.oauthAccounts;
  const auth = requireAccess(deps, services.access);

  for (const { platform, getAuth, postExchange } of perPlatform) {
    getAuth(router, auth, async (req, res) => {
      const url = await accounts.authorizeUrl(walletOf(req), platform);
      res.json({ url } satisfies z.input<typeof twitchAuthResponseSchema>);
    });
    postExchange(router, auth, async (req, res) => {
      const { code, state } = oauthExchangeRequestSchema.parse(req.body ?? {});
      const verified = await accounts.exchange(walletOf(req), platform, code, state);
      res.json({ success: true, ...verified } satisfies z.input<typeof oauthExchangeResponseSchema>);
    });
  }

  // Kick signs its webhook with its RSA key (no bearer token).
  postKickWebhook(router, async (req, res) => {
    const raw = (req as unknown as { rawBody?: Buffer }).rawBody ?? Buffer.alloc(0);
    const answer = await platforms.kick.handleWebhook(req.headers, raw);
    res.status(answer.status).end();
  });

  return router;
}
