// The live overlay for OBS and the public mining card (docs/platforms.md#the-overlay-and-the-public-card):
// REST bodies and the overlay's events.
import { z } from 'zod';
import { OVERLAY_EVENTS, OVERLAY_THEMES } from '../overlay-constants.ts';
import { isoTime, streamPlatformSchema } from './common.ts';

const overlayThemeSchema = z.enum(OVERLAY_THEMES);

/** The overlay link as the dashboard sees it (never the token itself: only its hash is kept). */
export const overlaySettingsSchema = z.object({
  /** Whether a link exists (created and neither rotated away nor revoked). */
  active: z.boolean(),
  createdAt: isoTime.nullable(),
  /** When the link stops working (links last OVERLAY_LINK_TTL_DAYS; a new one starts the count again). */
  expiresAt: isoTime.nullable(),
  theme: overlayThemeSchema,
  /** The streamer opted in to showing the pending reward on stream. */
  showBalance: z.boolean(),
});
export type OverlaySettings = z.infer<typeof overlaySettingsSchema>;

export const overlaySettingsRequestSchema = z.strictObject({
  theme: overlayThemeSchema.optional(),
  showBalance: z.boolean().optional(),
});

/** POST /streamer/overlay/token: the new link, shown once (the previous one stops working). */
export const overlayTokenResponseSchema = z.object({
  token: z.string(),
  url: z.url(),
  overlay: overlaySettingsSchema,
});

export const publicCardSettingsSchema = z.object({
  enabled: z.boolean(),
  slug: z.string().nullable(),
  url: z.url().nullable(),
});
export type PublicCardSettings = z.infer<typeof publicCardSettingsSchema>;
export const publicCardRequestSchema = z.strictObject({ enabled: z.boolean() });

/** GET /streamer/overlay. */
export const overlayResponseSchema = z.object({
  overlay: overlaySettingsSchema,
  card: publicCardSettingsSchema,
});
export type OverlayResponse = z.infer<typeof overlayResponseSchema>;

export const cardSlugSchema = z.string().regex(/^[a-z0-9]{6,32}$/, 'Invalid card');

/** GET /public/cards/:slug: what anyone may see of an opted-in streamer. */
export const publicCardSchema = z.object({
  slug: z.string(),
  tier: z.string().nullable(),
  totalMined: z.number().nonnegative(),
  channel: z
    .object({ platform: streamPlatformSchema, username: z.string(), url: z.string().nullable() })
    .nullable(),
});
export type PublicCard = z.infer<typeof publicCardSchema>;

/** The overlay's whole state (event `overlay-state`). */
const overlayStateSchema = z.object({
  theme: overlayThemeSchema,
  status: z.enum(['mining', 'ready']),
  platform: streamPlatformSchema.nullable(),
  tier: z.string().nullable(),
  /** What the current (or last) session mined, and its seconds. */
  sessionMined: z.number().nonnegative(),
  sessionSeconds: z.number().nonnegative(),
  /** Tokens per hour while mining (the rate due now otherwise). */
  miningRate: z.number().nonnegative(),
  currentDailyDuration: z.number().nonnegative(),
  dailyLimitSeconds: z.number().int().positive(),
  nextRateIncrease: isoTime.nullable(),
  /** Only when the streamer opted in (showBalance); null otherwise. */
  pendingReward: z.number().nonnegative().nullable(),
});
export type OverlayState = z.infer<typeof overlayStateSchema>;

/** A live patch (event `overlay-update`), from the engine's mining-update. */
const overlayUpdateSchema = overlayStateSchema
  .pick({
    status: true,
    platform: true,
    sessionMined: true,
    sessionSeconds: true,
    miningRate: true,
    currentDailyDuration: true,
  })
  .partial();
export type OverlayUpdate = z.infer<typeof overlayUpdateSchema>;

/** What the read-only overlay namespace sends (Socket.IO's generics, as ServerToClientEvents); it takes nothing. */
export type OverlayServerEvents = {
  [OVERLAY_EVENTS.state]: (state: OverlayState) => void;
  [OVERLAY_EVENTS.update]: (update: OverlayUpdate) => void;
  [OVERLAY_EVENTS.revoked]: (payload: { message: string }) => void;
  /** Any event an overlay sends is answered with this (OVERLAY_MESSAGES.readOnly). */
  error: (payload: { message: string; event: string }) => void;
};
