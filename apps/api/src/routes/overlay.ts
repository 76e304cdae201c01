// The overlay link and the public card (issue 24): the signed-in streamer's settings, and a card's public
// figures by its slug (no sign-in).
import {
  cardSlugSchema,
  type overlayResponseSchema,
  type overlaySettingsSchema,
  overlaySettingsRequestSchema,
  type overlayTokenResponseSchema,
  type publicCardSchema,
  publicCardRequestSchema,
  type publicCardSettingsSchema,
} from '@strm/shared';
import { Router } from 'express';
import type { z } from 'zod';
import type { AppDeps } from '../deps.ts';
import { requireAccess, requireWallet, walletOf } from '../http/auth.ts';
import type { AccessControl } from '../services/access.ts';
import { CARD_CACHE_MS, type OverlayService } from '../services/overlay/index.ts';

export function overlayRouter(deps: AppDeps, overlays: OverlayService, access: AccessControl): Router {
  const router = Router();
  const signedIn = requireAccess(deps, access);

  router.get('/streamer/overlay', signedIn, async (req, res) => {
    res.json((await overlays.settings(walletOf(req))) satisfies z.input<typeof overlayResponseSchema>);
  });
  router.post('/streamer/overlay/token', signedIn, async (req, res) => {
    res
      .status(201)
      .json((await overlays.issueToken(walletOf(req))) satisfies z.input<typeof overlayTokenResponseSchema>);
  });
  // Signed in is enough: a streamer whose access was revoked can still take down their own overlay link.
  router.delete('/streamer/overlay/token', requireWallet(deps), async (req, res) => {
    res.json((await overlays.revokeToken(walletOf(req))) satisfies z.input<typeof overlaySettingsSchema>);
  });
  router.put('/streamer/overlay/settings', signedIn, async (req, res) => {
    const change = overlaySettingsRequestSchema.parse(req.body);
    res.json(
      (await overlays.updateSettings(walletOf(req), change)) satisfies z.input<typeof overlaySettingsSchema>,
    );
  });
  router.put('/streamer/public-card', signedIn, async (req, res) => {
    const { enabled } = publicCardRequestSchema.parse(req.body);
    res.json(
      (await overlays.setCard(walletOf(req), enabled)) satisfies z.input<typeof publicCardSettingsSchema>,
    );
  });
  router.get('/public/cards/:slug', async (req, res) => {
    const slug = cardSlugSchema.parse(req.params.slug);
    res.setHeader('Cache-Control', 'no-cache');
    const card = await overlays.card(slug);
    // As long as the server keeps it (CARD_CACHE_MS), browsers and proxies may too.
    res.setHeader('Cache-Control', `public, max-age=${CARD_CACHE_MS / 1000}`);
    res.json(card satisfies z.input<typeof publicCardSchema>);
  });
  return router;
}
