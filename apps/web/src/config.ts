// Build-time settings of the web app (Vite env), with defaults.

/** The social and chat community (maintenance page, footer). Override with VITE_COMMUNITY_X / _DISCORD. */
export const COMMUNITY_LINKS = [
  { label: 'X (Twitter)', href: import.meta.env.VITE_COMMUNITY_X ?? 'https://x.com/' },
  { label: 'Discord', href: import.meta.env.VITE_COMMUNITY_DISCORD ?? 'https://discord.com/' },
] as const;

/** The footer's legal pages. Override with VITE_PRIVACY_URL / VITE_TERMS_URL. */
export const LEGAL_LINKS = [
  { label: 'Privacy Policy', href: import.meta.env.VITE_PRIVACY_URL ?? '/privacy' },
  { label: 'Terms of Service', href: import.meta.env.VITE_TERMS_URL ?? '/terms' },
] as const;

/** The version badges of the dashboard, and of the maintenance and registration pages (the design card). */
export const VERSIONS = {
  dashboard: 'v1.1.0-Beta',
  maintenance: 'v1.1.1-Beta',
  registration: 'v1.1.1-Beta',
} as const;
