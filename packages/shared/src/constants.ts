// Business constants (docs/product.md#constants) and the design card's. One source of truth for both apps.

declare const __PRODUCT_NAME__: string | undefined;
declare const process: { env: Record<string, string | undefined> } | undefined;

function configuredProductName(): string {
  // The web build replaces __PRODUCT_NAME__ (vite `define`); Node reads PRODUCT_NAME.
  if (typeof __PRODUCT_NAME__ !== 'undefined' && __PRODUCT_NAME__) return __PRODUCT_NAME__;
  // biome-ignore lint/complexity/useOptionalChain: `process` is undeclared in browsers; only typeof is safe.
  if (typeof process !== 'undefined' && process.env.PRODUCT_NAME) return process.env.PRODUCT_NAME;
  return 'STRM';
}

/** The token ticker and product word, `STRM` in docs/product.md. */
export const PRODUCT = configuredProductName();

export const TOKEN_DECIMALS = 6;
export const BASE_UNITS_PER_TOKEN = 10n ** BigInt(TOKEN_DECIMALS);

export const SECONDS_PER_HOUR = 3600;
export const SECONDS_PER_DAY = 86_400;
export const DAILY_MINING_LIMIT_SECONDS = 28_800;
export const DAILY_LIMIT_WARNING_SECONDS = 1800;
export const RATE_DOUBLING_DAYS = 10;
/** The rate-increase progress bar spans ten days. */
export const RATE_INCREASE_PERIOD_SECONDS = RATE_DOUBLING_DAYS * SECONDS_PER_DAY;

export const INTERVALS_MS = {
  marketRefresh: 30_000,
  maintenancePoll: 30_000,
  timezoneClock: 60_000,
  rateToast: 3000,
  authErrorRemoval: 5000,
  toast: 5000,
} as const;

export const TIKTOK_API_ENABLED = false;
export const TIMEZONE_MAX_CHANGES = 1;
export const TWITCH_AUTH_MESSAGE_TYPE = 'TWITCH_AUTH';

export const PLATFORMS = ['tiktok', 'twitch', 'youtube', 'kick'] as const;
/** The platforms verified by an OAuth authorization-code flow with PKCE (schemas/oauth-platforms.ts). */
export const OAUTH_CODE_PLATFORMS = ['youtube', 'kick'] as const;
/** Where a streamer can mine: the real platforms, plus the demo platform a local configuration enables. */
export const STREAM_PLATFORMS = [...PLATFORMS, 'demo'] as const;
/** Mining sessions: updates, checkpoints and the grace period of a dropped socket (server defaults). */
export const MINING_UPDATE_INTERVAL_MS = 5000;
export const MINING_CHECKPOINT_INTERVAL_MS = 60_000;
export const SOCKET_GRACE_PERIOD_MS = 30_000;
/** A collect request's self-transfer must be at most this old. */
export const COLLECT_SIGNATURE_MAX_AGE_SECONDS = 600;
export const REGISTRATION_PLATFORMS = ['tiktok', 'twitch', 'kick', 'youtube'] as const;
export const STREAMING_FREQUENCIES = [
  'Daily',
  '3-5 times per week',
  '1-2 times per week',
  'A few times per month',
] as const;
export const CONTENT_TYPES = [
  'Gaming',
  'Just Chatting',
  'Music',
  'Art',
  'Educational',
  'Crypto/Web3',
  'Other',
] as const;

export const API_BASE_PATH = '/api/v1';
