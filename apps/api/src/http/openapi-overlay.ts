// The overlay link and the public card's operations (routes/overlay.ts), listed by http/openapi.ts.
import {
  cardSlugSchema,
  overlayResponseSchema,
  overlaySettingsRequestSchema,
  overlaySettingsSchema,
  overlayTokenResponseSchema,
  publicCardRequestSchema,
  publicCardSchema,
  publicCardSettingsSchema,
} from '@strm/shared';
import { z } from 'zod';
import type { Operation } from './openapi-operation.ts';

export const OVERLAY_OPERATIONS: readonly Operation[] = [
  {
    method: 'get',
    path: '/streamer/overlay',
    tag: 'Overlay',
    summary:
      "The signed-in streamer's overlay link (whether one exists, never its token), theme and public card",
    auth: 'wallet',
    ok: { schema: overlayResponseSchema },
  },
  {
    method: 'post',
    path: '/streamer/overlay/token',
    tag: 'Overlay',
    summary:
      'A new overlay link (its read-only token is answered only here); the previous link stops working',
    auth: 'wallet',
    ok: { schema: overlayTokenResponseSchema, status: 201 },
  },
  {
    method: 'delete',
    path: '/streamer/overlay/token',
    tag: 'Overlay',
    summary: 'Revoke the overlay link: its overlays are disconnected at once',
    auth: 'wallet',
    ok: { schema: overlaySettingsSchema },
  },
  {
    method: 'put',
    path: '/streamer/overlay/settings',
    tag: 'Overlay',
    summary: "The overlay's theme and whether it shows the pending reward (off unless opted in)",
    auth: 'wallet',
    body: overlaySettingsRequestSchema,
    ok: { schema: overlaySettingsSchema },
  },
  {
    method: 'put',
    path: '/streamer/public-card',
    tag: 'Overlay',
    summary: 'Make the public mining card public (at a new address) or private again',
    auth: 'wallet',
    body: publicCardRequestSchema,
    ok: { schema: publicCardSettingsSchema },
  },
  {
    method: 'get',
    path: '/public/cards/:slug',
    tag: 'Overlay',
    summary: "A public mining card: the streamer's tier, total mined and channel (no sign-in)",
    auth: 'none',
    params: z.object({ slug: cardSlugSchema }),
    ok: { schema: publicCardSchema },
    errors: { 404: 'No such card, or it is no longer public' },
  },
];
