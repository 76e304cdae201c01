// The overlay link and the public card (docs/platforms.md#the-overlay-and-the-public-card): the signed-in
// streamer's settings, and a card's public figures by its slug (no sign-in).
import {
  cardSlugSchema,
  overlayResponseSchema,
  overlaySettingsSchema,
  overlaySettingsRequestSchema,
  overlayTokenResponseSchema,
  publicCardSchema,
  publicCardRequestSchema,
  publicCardSettingsSchema,
} from '@strm/shared';
import { Router } from 'express';
import { z } from 'zod';
import type { AppDeps } from '../deps.ts';
import { requireAccess, requireWallet, walletOf } from '../http/auth.ts';
import { route } from '../http/openapi-route.ts';
import type { AccessControl } from '../services/access.ts';
import { CARD_CACHE_MS, type OverlayService } from '../services/overlay/index.ts';

const getOverlay = route({
  method: 'get',
  path: '/streamer/overlay',
  tag: 'Overlay',
  summary:
    "The signed-in streamer's overlay link (whether one exists, never its token), theme and public card",
  auth: 'wallet',
  ok: { schema: overlayResponseSchema },
});

const postOverlayToken = route({
  method: 'post',
  path: '/streamer/overlay/token',
  tag: 'Overlay',
  summary: 'A new overlay link (its read-only token is answered only here); the previous link stops working',
  auth: 'wallet',
  ok: { schema: overlayTokenResponseSchema, status: 201 },
});

const deleteOverlayToken = route({
  method: 'delete',
  path: '/streamer/overlay/token',
  tag: 'Overlay',
  summary: 'Revoke the overlay link: its overlays are disconnected at once',
  auth: 'wallet',
  ok: { schema: overlaySettingsSchema },
});

const putOverlaySettings = route({
  method: 'put',
  path: '/streamer/overlay/settings',
  tag: 'Overlay',
  summary: "The overlay's theme and whether it shows the pending reward (off unless opted in)",
  auth: 'wallet',
  body: overlaySettingsRequestSchema,
  ok: { schema: overlaySettingsSchema },
});

const putPublicCard = route({
  method: 'put',
  path: '/streamer/public-card',
  tag: 'Overlay',
  summary: 'Make the public mining card public (at a new address) or private again',
  auth: 'wallet',
  body: publicCardRequestSchema,
  ok: { schema: publicCardSettingsSchema },
});

const getPublicCard = route({
  method: 'get',
  path: '/public/cards/:slug',
  tag: 'Overlay',
  summary: "A public mining card: the streamer's tier, total mined and channel (no sign-in)",
  auth: 'none',
  params: z.object({ slug: cardSlugSchema }),
  ok: { schema: publicCardSchema },
  errors: { 404: 'No such card, or it is no longer public' },
});

export function overlayRouter(
  deps: Pick<AppDeps, 'clock' | 'config' | 'prisma'>,
  overlays: OverlayService,
  access: AccessControl,
): Router {
  const router = Router();
  const signedIn = requireAccess(deps, access);

  getOverlay(router, signedIn, async (req, res) => {
    res.json((await overlays.settings(walletOf(req))) satisfies z.input<typeof overlayResponseSchema>);
  });
  postOverlayToken(router, signedIn, async (req, res) => {
    res
      .status(201)
      .json((await overlays.issueToken(walletOf(req))) satisfies z.input<typeof overlayTokenResponseSchema>);
  });
  // Signed in is enough: a streamer whose access was revoked can still take down their own overlay link.
  deleteOverlayToken(router, requireWallet(deps), async (req, res) => {
    res.json((await overlays.revokeToken(walletOf(req))) satisfies z.input<typeof overlaySettingsSchema>);
  });
  putOverlaySettings(router, signedIn, async (req, res) => {
    const change = overlaySettingsRequestSchema.parse(req.body);
    res.json(
      (await overlays.updateSettings(walletOf(req), change)) satisfies z.input<typeof overlaySettingsSchema>,
    );
  });
  putPublicCard(router, signedIn, async (req, res) => {
    const { enabled } = publicCardRequestSchema.parse(req.body);
    res.json(
      (await overlays.setCard(walletOf(req), enabled)) satisfies z.input<typeof publicCardSettingsSchema>,
    );
  });
  getPublicCard(router, async (req, res) => {
    const slug = cardSlugSchema.parse(req.params.slug);
    res.setHeader('Cache-Control', 'no-cache');
    const card = await overlays.card(slug);
    // As long as the server keeps it (CARD_CACHE_MS), browsers and proxies may too.
    res.setHeader('Cache-Control', `public, max-age=${CARD_CACHE_MS / 1000}`);
    res.json(card satisfies z.input<typeof publicCardSchema>);
  });
  return router;
}
