// Platform endpoints (docs/product.md#rest): Twitch's authorisation URL, TikTok bio codes, verification, the
// platforms' status and usernames, and TikTok's code exchange behind the TIKTOK_API flag. Every route
// acts on the signed-in wallet; a body or query naming another wallet is refused.
import {
  platformsResponseSchema,
  SERVER_MESSAGES,
  streamerValidationRequestSchema,
  tiktokExchangeCodeRequestSchema,
  tiktokExchangeCodeResponseSchema,
  twitchAuthResponseSchema,
  updateUsernameRequestSchema,
  updateUsernameResponseSchema,
  verificationResponseSchema,
  verifyStreamerRequestSchema,
  walletQuerySchema,
} from '@strm/shared';
import { Router } from 'express';
import { z } from 'zod';
import type { AppDeps } from '../deps.ts';
import { DomainError } from '../errors.ts';
import { assertOwnWallet, requireAccess, walletOf } from '../http/auth.ts';
import { route } from '../http/openapi-route.ts';
import type { Services } from '../services/index.ts';

const getTwitchAuth = route({
  method: 'get',
  path: '/twitch/auth',
  tag: 'Platforms',
  summary: "Twitch's authorisation URL for this attempt (with its single-use state)",
  auth: 'wallet',
  ok: { schema: twitchAuthResponseSchema },
});

const postTwitchEventSub = route({
  method: 'post',
  path: '/twitch/eventsub',
  tag: 'Platforms',
  summary: 'Twitch EventSub webhook (signed with TWITCH_EVENTSUB_SECRET, no bearer token)',
  auth: 'none',
  body: z.looseObject({}),
  ok: { text: true, description: 'The challenge (verification) or an empty answer' },
  errors: {
    204: 'Notification accepted',
    403: 'Bad signature or too old',
    404: 'EventSub is not configured',
  },
  bareErrors: true,
});

const getPlatforms = route({
  method: 'get',
  path: '/streamer-platforms',
  tag: 'Platforms',
  summary: "The signed-in wallet's platform accounts and whether each is verified",
  auth: 'wallet',
  query: walletQuerySchema.partial(),
  ok: { schema: platformsResponseSchema },
});

const postUsername = route({
  method: 'post',
  path: '/update-streamer-username',
  tag: 'Platforms',
  summary: 'Change a platform username (to be verified again)',
  auth: 'wallet',
  body: updateUsernameRequestSchema,
  ok: { schema: updateUsernameResponseSchema },
  errors: { 409: 'The username is taken or the streamer is live' },
});

const postValidation = route({
  method: 'post',
  path: '/streamer-validation',
  tag: 'Platforms',
  summary: 'A TikTok bio verification code',
  auth: 'wallet',
  body: streamerValidationRequestSchema,
  ok: { schema: verificationResponseSchema },
});

const postVerify = route({
  method: 'post',
  path: '/verify-streamer',
  tag: 'Platforms',
  summary: 'Verify a platform account (bio code or OAuth token)',
  auth: 'wallet',
  body: verifyStreamerRequestSchema,
  ok: { schema: verificationResponseSchema },
  errors: {
    409: 'The account belongs to another wallet',
    502: 'The platform failed',
    503: 'The platform is unreachable',
  },
});

const postTikTokCode = route({
  method: 'post',
  path: '/tiktok/exchange-code',
  tag: 'Platforms',
  summary: "Exchange TikTok's authorisation code (TIKTOK_API only)",
  auth: 'wallet',
  body: tiktokExchangeCodeRequestSchema,
  ok: { schema: tiktokExchangeCodeResponseSchema },
  errors: { 404: 'The TikTok API is off', 502: 'TikTok failed', 503: 'TikTok is unreachable' },
});

const getTikTokAuth = route({
  method: 'get',
  path: '/tiktok/auth',
  tag: 'Platforms',
  summary: "TikTok Login Kit's authorisation URL for this attempt (TIKTOK_API only)",
  auth: 'wallet',
  ok: { schema: twitchAuthResponseSchema },
  errors: { 404: 'The TikTok API is off' },
});

export function platformsRouter(
  deps: Pick<AppDeps, 'clock' | 'config' | 'prisma'>,
  services: Pick<Services, 'platforms' | 'platformAccounts' | 'access'>,
): Router {
  const router = Router();
  const { config } = deps;
  const accounts = services.platformAccounts;
  // Signed in with beta access (or an admin); the EventSub webhook alone is Twitch's.
  const auth = requireAccess(deps, services.access);

  getTwitchAuth(router, auth, async (req, res) => {
    const url = await accounts.twitchAuthorizeUrl(walletOf(req));
    res.json({ url } satisfies z.input<typeof twitchAuthResponseSchema>);
  });

  // Twitch EventSub webhook (no bearer token: Twitch signs it with TWITCH_EVENTSUB_SECRET).
  postTwitchEventSub(router, async (req, res) => {
    const raw = (req as unknown as { rawBody?: Buffer }).rawBody ?? Buffer.alloc(0);
    const answer = await services.platforms.twitch.handleEventSub(req.headers, raw);
    if (answer.text !== undefined) res.status(answer.status).type('text/plain').send(answer.text);
    else res.status(answer.status).end();
  });

  getPlatforms(router, auth, async (req, res) => {
    assertOwnWallet(req, walletQuerySchema.partial().parse(req.query).wallet);
    const platforms = await accounts.statuses(walletOf(req));
    res.json({ success: true, platforms } satisfies z.input<typeof platformsResponseSchema>);
  });

  postUsername(router, auth, async (req, res) => {
    const { platform, username } = updateUsernameRequestSchema.parse(req.body ?? {});
    const account = await accounts.updateUsername(walletOf(req), platform, username);
    res.json({ success: true, ...account } satisfies z.input<typeof updateUsernameResponseSchema>);
  });

  postValidation(router, auth, async (req, res) => {
    const { platform, wallet } = streamerValidationRequestSchema.parse(req.body ?? {});
    assertOwnWallet(req, wallet);
    const code = await accounts.generateCode(walletOf(req), platform);
    res.json({ success: true, ...code } satisfies z.input<typeof verificationResponseSchema>);
  });

  postVerify(router, auth, async (req, res) => {
    const input = verifyStreamerRequestSchema.parse(req.body ?? {});
    const verified = await accounts.verify(walletOf(req), input);
    res.json({ success: true, ...verified } satisfies z.input<typeof verificationResponseSchema>);
  });

  postTikTokCode(router, auth, async (req, res) => {
    if (!config.platforms.tiktok.apiEnabled) {
      throw new DomainError('tiktok_api_disabled', SERVER_MESSAGES.tiktokApiDisabled);
    }
    const { code, state } = tiktokExchangeCodeRequestSchema.parse(req.body ?? {});
    const exchanged = await accounts.exchangeTikTokCode(walletOf(req), code, state);
    res.json({ success: true, ...exchanged } satisfies z.input<typeof tiktokExchangeCodeResponseSchema>);
  });

  getTikTokAuth(router, auth, async (req, res) => {
    if (!config.platforms.tiktok.apiEnabled) {
      throw new DomainError('tiktok_api_disabled', SERVER_MESSAGES.tiktokApiDisabled);
    }
    const url = await accounts.tiktokAuthorizeUrl(walletOf(req));
    res.json({ url } satisfies z.input<typeof twitchAuthResponseSchema>);
  });

  return router;
}
