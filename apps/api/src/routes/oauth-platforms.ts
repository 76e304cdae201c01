// YouTube's and Kick's endpoints (issue 40): the authorization URL of this attempt, the code's exchange (which
// verifies the account the platform names), and Kick's webhook. Every route but the webhook acts on the
// signed-in wallet with beta access.
import {
  OAUTH_CODE_PLATFORMS,
  oauthExchangeRequestSchema,
  type oauthExchangeResponseSchema,
  type twitchAuthResponseSchema,
} from '@strm/shared';
import { Router } from 'express';
import type { z } from 'zod';
import type { AppDeps } from '../deps.ts';
import { requireAccess, walletOf } from '../http/auth.ts';
import { OAuthCodeAccounts } from '../platforms/oauth-accounts.ts';
import type { AccessControl } from '../services/access.ts';
import type { Mining } from '../services/mining/index.ts';
import { PlatformAccounts } from '../services/platforms/verification.ts';

export function oauthPlatformsRouter(deps: AppDeps, mining: Mining, access: AccessControl): Router {
  const router = Router();
  const isLive = (wallet: string) => mining.engine.liveAnywhere(wallet);
  const accounts = new OAuthCodeAccounts({
    prisma: deps.prisma,
    clock: deps.clock,
    logger: deps.logger,
    youtube: mining.youtube,
    kick: mining.kick,
    accounts: new PlatformAccounts({
      prisma: deps.prisma,
      clock: deps.clock,
      logger: deps.logger,
      twitch: mining.twitch,
      tiktok: mining.tiktok,
      isLive,
      codeTtlSeconds: deps.config.platforms.tiktok.codeTtlSeconds,
    }),
    isLive,
    youtubeSecret: deps.config.platforms.youtube.clientSecret,
  });
  const auth = requireAccess(deps, access);

  for (const platform of OAUTH_CODE_PLATFORMS) {
    router.get(`/${platform}/auth`, auth, async (req, res) => {
      const url = await accounts.authorizeUrl(walletOf(req), platform);
      res.json({ url } satisfies z.input<typeof twitchAuthResponseSchema>);
    });
    router.post(`/${platform}/exchange-code`, auth, async (req, res) => {
      const { code, state } = oauthExchangeRequestSchema.parse(req.body ?? {});
      const verified = await accounts.exchange(walletOf(req), platform, code, state);
      res.json({ success: true, ...verified } satisfies z.input<typeof oauthExchangeResponseSchema>);
    });
  }

  // Kick's webhook (no bearer token: Kick signs it with its RSA key).
  router.post('/kick/webhook', async (req, res) => {
    const raw = (req as unknown as { rawBody?: Buffer }).rawBody ?? Buffer.alloc(0);
    const answer = await mining.kick.handleWebhook(req.headers, raw);
    res.status(answer.status).end();
  });

  return router;
}
