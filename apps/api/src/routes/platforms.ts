// Platform endpoints (spec §7): Twitch's authorisation URL, TikTok bio codes, verification, the
// platforms' status and usernames, and TikTok's code exchange behind the TIKTOK_API flag. Every route
// acts on the signed-in wallet; a body or query naming another wallet is refused.
import {
  type platformsResponseSchema,
  SERVER_MESSAGES,
  streamerValidationRequestSchema,
  tiktokExchangeCodeRequestSchema,
  type tiktokExchangeCodeResponseSchema,
  type twitchAuthResponseSchema,
  updateUsernameRequestSchema,
  type updateUsernameResponseSchema,
  type verificationResponseSchema,
  verifyStreamerRequestSchema,
  walletQuerySchema,
} from '@strm/shared';
import { Router } from 'express';
import type { z } from 'zod';
import type { AppDeps } from '../deps.ts';
import { DomainError } from '../errors.ts';
import { assertOwnWallet, requireAccess, walletOf } from '../http/auth.ts';
import type { AccessControl } from '../services/access.ts';
import type { Mining } from '../services/mining/index.ts';
import { PlatformAccounts } from '../services/platforms/verification.ts';

export function platformsRouter(deps: AppDeps, mining: Mining, access: AccessControl): Router {
  const router = Router();
  const { config } = deps;
  const accounts = new PlatformAccounts({
    prisma: deps.prisma,
    clock: deps.clock,
    logger: deps.logger,
    twitch: mining.twitch,
    tiktok: mining.tiktok,
    isLive: (wallet) => mining.engine.liveAnywhere(wallet),
    codeTtlSeconds: config.platforms.tiktok.codeTtlSeconds,
  });
  // Signed in with beta access (or an admin); the EventSub webhook alone is Twitch's.
  const auth = requireAccess(deps, access);

  router.get('/twitch/auth', auth, async (req, res) => {
    const url = await accounts.twitchAuthorizeUrl(walletOf(req));
    res.json({ url } satisfies z.input<typeof twitchAuthResponseSchema>);
  });

  // Twitch EventSub webhook (no bearer token: Twitch signs it with TWITCH_EVENTSUB_SECRET).
  router.post('/twitch/eventsub', (req, res) => {
    const raw = (req as unknown as { rawBody?: Buffer }).rawBody ?? Buffer.alloc(0);
    const answer = mining.twitch.handleEventSub(req.headers, raw);
    if (answer.text !== undefined) res.status(answer.status).type('text/plain').send(answer.text);
    else res.status(answer.status).end();
  });

  router.get('/streamer-platforms', auth, async (req, res) => {
    assertOwnWallet(req, walletQuerySchema.partial().parse(req.query).wallet);
    const platforms = await accounts.statuses(walletOf(req));
    res.json({ success: true, platforms } satisfies z.input<typeof platformsResponseSchema>);
  });

  router.post('/update-streamer-username', auth, async (req, res) => {
    const { platform, username } = updateUsernameRequestSchema.parse(req.body ?? {});
    const account = await accounts.updateUsername(walletOf(req), platform, username);
    res.json({ success: true, ...account } satisfies z.input<typeof updateUsernameResponseSchema>);
  });

  router.post('/streamer-validation', auth, async (req, res) => {
    const { platform, wallet } = streamerValidationRequestSchema.parse(req.body ?? {});
    assertOwnWallet(req, wallet);
    const code = await accounts.generateCode(walletOf(req), platform);
    res.json({ success: true, ...code } satisfies z.input<typeof verificationResponseSchema>);
  });

  router.post('/verify-streamer', auth, async (req, res) => {
    const input = verifyStreamerRequestSchema.parse(req.body ?? {});
    const verified = await accounts.verify(walletOf(req), input);
    res.json({ success: true, ...verified } satisfies z.input<typeof verificationResponseSchema>);
  });

  router.post('/tiktok/exchange-code', auth, async (req, res) => {
    if (!config.platforms.tiktok.apiEnabled) {
      throw new DomainError('tiktok_api_disabled', SERVER_MESSAGES.tiktokApiDisabled);
    }
    const { code, state } = tiktokExchangeCodeRequestSchema.parse(req.body ?? {});
    const exchanged = await accounts.exchangeTikTokCode(walletOf(req), code, state);
    res.json({ success: true, ...exchanged } satisfies z.input<typeof tiktokExchangeCodeResponseSchema>);
  });

  router.get('/tiktok/auth', auth, async (req, res) => {
    if (!config.platforms.tiktok.apiEnabled) {
      throw new DomainError('tiktok_api_disabled', SERVER_MESSAGES.tiktokApiDisabled);
    }
    const url = await accounts.tiktokAuthorizeUrl(walletOf(req));
    res.json({ url } satisfies z.input<typeof twitchAuthResponseSchema>);
  });

  return router;
}
