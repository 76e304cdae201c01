// The dashboard panel's words.
import type { OverlayTheme } from '@strm/shared';

export const OVERLAY_PANEL_TEXT = {
  title: 'Stream overlay',
  intro:
    'Show your mining live on stream: add the overlay link to OBS or Streamlabs as a browser source (1920x1080, transparent background).',
  create: 'Create overlay link',
  rotate: 'Rotate link',
  revoke: 'Revoke link',
  copy: 'Copy',
  copied: 'Copied',
  linkLabel: 'Overlay link',
  linkOnce: 'Keep this link secret and paste it into your browser source now: it is shown only once.',
  activeSince: 'An overlay link is active since',
  /** Links last OVERLAY_LINK_TTL_DAYS; a new link starts the count again. */
  expiresOn: 'it works until',
  noLink: 'No overlay link yet.',
  theme: 'Theme',
  showBalance: 'Show my pending reward on stream',
  preview: 'Preview',
  cardTitle: 'Public mining card',
  cardToggle: 'Make my mining card public',
  cardHint:
    'A page anyone can open with your tier, total mined and channel link. Turn it off to take it down.',
  cardOpen: 'Open my card',
  failed: 'The overlay settings could not be loaded.',
} as const;

export const THEME_NAMES: Record<OverlayTheme, string> = {
  'corner-badge': 'Corner badge',
  'lower-third': 'Lower third',
  'compact-counter': 'Compact counter',
};
