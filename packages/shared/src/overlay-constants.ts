// The live overlay's wire names, without zod: the overlay page imports this file alone
// (`@strm/shared/overlay-constants`) so that its bundle stays free of the schemas.

/** The Socket.IO namespace overlays join: read-only, with an overlay token instead of a session token. */
export const OVERLAY_NAMESPACE = '/overlay';

/** Every overlay token starts with this, so that the API can tell one apart from a session token. */
export const OVERLAY_TOKEN_PREFIX = 'ovl_';

export const OVERLAY_THEMES = ['corner-badge', 'lower-third', 'compact-counter'] as const;
export type OverlayTheme = (typeof OVERLAY_THEMES)[number];

/** Server → overlay: the whole state (on connect and after a session starts or ends), and a live patch. */
export const OVERLAY_EVENTS = {
  state: 'overlay-state',
  update: 'overlay-update',
  revoked: 'overlay-revoked',
} as const;

export const OVERLAY_MESSAGES = {
  /** Any acting route or event reached with an overlay token. */
  readOnly: 'This overlay link is read-only and cannot act for the wallet',
  /** An overlay handshake whose token is unknown, rotated or revoked. */
  invalidToken: 'This overlay link is not valid anymore. Create a new one in your dashboard.',
  revoked: 'This overlay link was revoked',
  /** A link past its lifetime (OVERLAY_LINK_TTL_DAYS): the streamer makes a new one. */
  expired: 'This overlay link has expired. Create a new one in your dashboard.',
  cardNotFound: 'This mining card does not exist or is no longer public',
} as const;
