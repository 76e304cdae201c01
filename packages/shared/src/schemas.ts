import { z } from 'zod';
import {
  CONTENT_TYPES,
  PLATFORMS,
  REGISTRATION_PLATFORMS,
  STREAM_PLATFORMS,
  STREAMING_FREQUENCIES,
} from './constants.ts';

// ---- primitives -------------------------------------------------------------------------------

/** A base58 Solana address (32-44 characters); the API also decodes it to 32 bytes. */
export const walletSchema = z
  .string()
  .trim()
  .regex(/^[1-9A-HJ-NP-Za-km-z]{32,44}$/, 'Invalid wallet address');

/** A base58 transaction signature (64 bytes, 86-88 characters). */
export const signatureSchema = z
  .string()
  .trim()
  .regex(/^[1-9A-HJ-NP-Za-km-z]{64,88}$/, 'Invalid transaction signature');

const isoTime = z.iso.datetime();

export const platformSchema = z.enum(PLATFORMS);
export type Platform = z.infer<typeof platformSchema>;
/** Platforms a mining session can run on (the demo platform exists only in local configurations). */
export const streamPlatformSchema = z.enum(STREAM_PLATFORMS);
export type StreamPlatform = z.infer<typeof streamPlatformSchema>;

/** Any IANA time zone the runtime knows. */
export const timezoneSchema = z
  .string()
  .trim()
  .min(1)
  .max(64)
  .refine((tz) => {
    try {
      new Intl.DateTimeFormat('en-US', { timeZone: tz });
      return true;
    } catch {
      return false;
    }
  }, 'Unknown time zone');

// ---- errors -------------------------------------------------------------------------------------

/** Every API error: a stable machine code and the message a user may see. */
export const apiErrorSchema = z.object({ error: z.string(), message: z.string() });
export type ApiError = z.infer<typeof apiErrorSchema>;

// ---- auth ---------------------------------------------------------------------------------------

/** GET /nonce?publicKey=…: a single-use nonce and the exact Sign-In-With-Solana message to sign. */
export const nonceResponseSchema = z.object({
  nonce: z.string(),
  message: z.string(),
  expiresAt: z.iso.datetime(),
});
export type NonceResponse = z.infer<typeof nonceResponseSchema>;

export const authenticateRequestSchema = z.object({
  publicKey: walletSchema,
  /** The wallet's ed25519 signature of the sign-in message, as an array of byte numbers. */
  signedMessage: z.array(z.number().int().min(0).max(255)).length(64),
  nonce: z.string().min(16).max(128),
});
export type AuthenticateRequest = z.infer<typeof authenticateRequestSchema>;

export const authenticateResponseSchema = z.object({ token: z.string() });

// ---- beta registration ----------------------------------------------------------------------

const requiredText = (label: string, max: number) =>
  z
    .string({ error: `${label} is required` })
    .trim()
    .min(1, `${label} is required`)
    .max(max, `${label} is too long`);

/** What the registration form submits (spec §5). The wallet comes from the token, the balance from the chain. */
export const registrationRequestSchema = z.object({
  name: requiredText('Name', 200),
  email: z
    .string({ error: 'Email is required' })
    .trim()
    .pipe(z.email('Enter a valid email address').max(320)),
  platform: z.enum(REGISTRATION_PLATFORMS, { error: 'Choose a streaming platform' }).default('tiktok'),
  platform_username: requiredText('Platform username', 100),
  discord_username: z
    .string()
    .trim()
    .max(100, 'Discord username is too long')
    .optional()
    .transform((v) => (v ? v : undefined)),
  streaming_frequency: z.enum(STREAMING_FREQUENCIES, { error: 'Choose a streaming frequency' }),
  // A number, or a form field's decimal text; blank is refused as missing, never read as 0.
  follower_count: z.preprocess(
    (v) => {
      if (typeof v !== 'string') return v;
      const text = v.trim();
      if (text === '') return undefined;
      return /^-?\d+(\.\d+)?$/.test(text) ? Number(text) : v;
    },
    z
      .number({
        error: (issue) =>
          issue.input === undefined ? 'Follower count is required' : 'Follower count must be a number',
      })
      .int('Follower count must be a whole number')
      .min(0, 'Follower count cannot be negative')
      .max(2_000_000_000, 'Follower count is too large'),
  ),
  content_type: z.enum(CONTENT_TYPES, { error: 'Choose a content type' }),
  project_interest: requiredText('Project interest', 5000),
});
export type RegistrationRequest = z.input<typeof registrationRequestSchema>;
export type RegistrationInput = z.output<typeof registrationRequestSchema>;

export const registrationSchema = registrationRequestSchema.extend({
  wallet: walletSchema,
  /** The spec's `{product}_tokens`: wallet balance (whole tokens) at submit time, read by the server. */
  token_balance: z.number().nonnegative(),
  created_at: z.iso.datetime(),
});
export type Registration = z.infer<typeof registrationSchema>;

export const betaAccessResponseSchema = z.object({ hasAccess: z.boolean() });

/** The token's wallet balance as the server reads it from the chain. */
export const tokenBalanceResponseSchema = z.object({
  wallet: walletSchema,
  /** Whole tokens (display). */
  balance: z.number().nonnegative(),
  /** Base units (10^-6), as a decimal string. */
  units: z.string().regex(/^\d+$/),
});
export type TokenBalanceResponse = z.infer<typeof tokenBalanceResponseSchema>;

// ---- streamer, platforms, verification --------------------------------------------------

export const streamerSchema = z.object({
  wallet: walletSchema,
  pendingReward: z.number().nonnegative(),
  isAdmin: z.boolean(),
  timezone: z.string(),
  timezoneChangedTimes: z.number().int().nonnegative(),
  /**
   * When the streamer's zone was first set (null: never; the zone is the 'UTC' default). The web app then
   * sends the browser's zone, which is not counted as a change.
   */
  timezoneSetAt: isoTime.nullable(),
  /** The tier active on chain (null when inactive) and when it was activated. */
  activeTier: z.string().nullable().optional(),
  tierActivatedAt: isoTime.nullable().optional(),
  miningRate: z.number().nonnegative().optional(),
  nextRateIncrease: isoTime.nullable().optional(),
  isLive: z.boolean().optional(),
});
export type Streamer = z.infer<typeof streamerSchema>;

export const platformStatusSchema = z.object({
  platform: platformSchema,
  isVerified: z.boolean(),
  username: z.string().nullable(),
});
export type PlatformStatus = z.infer<typeof platformStatusSchema>;

export const platformsResponseSchema = z.object({
  success: z.boolean(),
  platforms: z.array(platformStatusSchema),
});

/** POST /streamer-validation (a TikTok bio code) and POST /verify-streamer answers. */
export const verificationResponseSchema = z.object({
  success: z.boolean(),
  verificationCode: z.string().optional(),
  message: z.string().optional(),
  /** streamer-validation: when the code stops being accepted. */
  expiresAt: isoTime.optional(),
  /** verify-streamer: the account as now verified. */
  platform: platformSchema.optional(),
  username: z.string().optional(),
  isVerified: z.boolean().optional(),
});
/**
 * GET /twitch/auth: the implicit-grant URL the 600x800 popup opens (GET /tiktok/auth: Login Kit's). Its
 * `state` is made by the server for this attempt and must come back with the result (single use).
 */
export const twitchAuthResponseSchema = z.object({ url: z.url() });
/** The OAuth `state` as the platform returns it; the server says why a missing or unknown one is refused. */
const oauthStateSchema = z.string().trim().max(256).optional();
/** POST /tiktok/exchange-code (only when the TikTok API flag is on). */
export const tiktokExchangeCodeRequestSchema = z.strictObject({
  code: z.string().trim().min(1).max(2048),
  state: oauthStateSchema,
});
export const tiktokExchangeCodeResponseSchema = z.object({
  success: z.boolean(),
  access_token: z.string().optional(),
  message: z.string().optional(),
  username: z.string().optional(),
});
/** POST /update-streamer-username: the account after the change (a new username must be verified again). */
export const updateUsernameResponseSchema = z.object({
  success: z.boolean(),
  platform: platformSchema,
  username: z.string(),
  isVerified: z.boolean(),
});
export type VerificationResponse = z.infer<typeof verificationResponseSchema>;

export const streamerValidationRequestSchema = z.object({ platform: platformSchema, wallet: walletSchema });
export const verifyStreamerRequestSchema = z.object({
  platform: platformSchema,
  verificationCode: z.string().trim().max(64).optional(),
  accessToken: z.string().trim().max(4096).optional(),
  accessTokenExp: z.coerce.number().int().positive().optional(),
  /** Twitch: the state of the authorisation the token came back from. */
  state: oauthStateSchema,
});
export const updateUsernameRequestSchema = z.object({
  platform: platformSchema,
  username: z
    .string()
    .trim()
    .min(1, 'Username is required')
    .max(64)
    .regex(/^@?[A-Za-z0-9_.]+$/, 'Invalid username'),
});
export const timezoneRequestSchema = z.object({ timezone: timezoneSchema });
/** PUT /streamer/timezone's answer: the zone now in force and how many changes have been made. */
export const timezoneResponseSchema = z.object({
  success: z.boolean(),
  timezone: z.string(),
  timezoneChangedTimes: z.number().int().nonnegative(),
  timezoneSetAt: isoTime,
});
/** Admin only: set a streamer's pending reward (whole tokens, up to 6 decimals), with an audit record. */
export const pendingRewardRequestSchema = z.strictObject({
  wallet: walletSchema,
  amount: z.number().nonnegative('Amount cannot be negative').max(1_000_000_000, 'Amount is too large'),
  reason: z.string().trim().max(500).optional(),
});
export const walletQuerySchema = z.object({ wallet: walletSchema });

/** POST /streamer/pending-reward's answer: the reward before and after, and the adjustment's record id. */
export const pendingRewardResponseSchema = z.object({
  success: z.boolean(),
  wallet: walletSchema,
  previousPendingReward: z.number().nonnegative(),
  pendingReward: z.number().nonnegative(),
  adjustmentId: z.number().int(),
});

// ---- admin -------------------------------------------------------------------------------------

/** An ISO 8601 date (2026-01-02) or date-time in a query string, as a Date; anything else is refused. */
const queryDate = (name: string) =>
  z
    .union(
      // RFC 3339's date-time has seconds (zod's alone would also take 2026-01-02T10:00Z).
      [z.iso.date(), z.iso.datetime({ offset: true }).regex(/T\d{2}:\d{2}:\d{2}/)],
      { error: `${name} must be a date` },
    )
    .transform((text) => new Date(text));

/** GET /admin/registrations: filters, sort, search and paging (query strings, coerced). */
export const registrationListQuerySchema = z.object({
  platform: z.enum(REGISTRATION_PLATFORMS).optional(),
  access: z.enum(['granted', 'none']).optional(),
  from: queryDate('from').optional(),
  to: queryDate('to').optional(),
  /** Case-insensitive: part of the name, the platform username, the Discord username or the wallet. */
  search: z.string().trim().max(100).optional(),
  sort: z.enum(['created_at', 'follower_count']).default('created_at'),
  order: z.enum(['asc', 'desc']).default('desc'),
  page: z.coerce.number().int().min(1).max(1_000_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(20),
});
export type RegistrationListQuery = z.infer<typeof registrationListQuerySchema>;

export const adminRegistrationSchema = registrationSchema.extend({ hasAccess: z.boolean() });
export type AdminRegistration = z.infer<typeof adminRegistrationSchema>;

export const registrationListResponseSchema = z.object({
  items: z.array(adminRegistrationSchema),
  total: z.number().int().nonnegative(),
  page: z.number().int().positive(),
  pageSize: z.number().int().positive(),
});
export type RegistrationListResponse = z.infer<typeof registrationListResponseSchema>;

/** PUT/DELETE /admin/beta-access/{wallet}: the wallet's access after the change. */
export const betaAccessChangeSchema = z.object({ wallet: walletSchema, hasAccess: z.boolean() });

export const adminEntrySchema = z.object({
  wallet: walletSchema,
  /** 'config': listed in ADMIN_WALLETS (cannot be demoted through the API); 'promoted': by an admin. */
  source: z.enum(['config', 'promoted']),
  promoted_by: z.string().nullable(),
  created_at: isoTime.nullable(),
});
export type AdminEntry = z.infer<typeof adminEntrySchema>;
export const adminListSchema = z.array(adminEntrySchema);
/** PUT/DELETE /admin/admins/{wallet}: whether the wallet is an admin after the change. */
export const adminChangeSchema = z.object({ wallet: walletSchema, isAdmin: z.boolean() });

export const ADMIN_ACTIONS = [
  'grant_access',
  'revoke_access',
  'promote_admin',
  'demote_admin',
  'maintenance_on',
  'maintenance_off',
] as const;
export const auditQuerySchema = z.object({ limit: z.coerce.number().int().min(1).max(500).default(100) });
/** Who did what and when; newest first. The actor is a wallet or `cli:<user>` for the operators' CLI. */
export const auditEntrySchema = z.object({
  id: z.number().int(),
  actor: z.string(),
  action: z.enum(ADMIN_ACTIONS),
  target: z.string().nullable(),
  detail: z.string().nullable(),
  created_at: isoTime,
});
export type AuditEntry = z.infer<typeof auditEntrySchema>;
export const auditListSchema = z.array(auditEntrySchema);

// ---- maintenance, market, health ------------------------------------------------------------

export const maintenanceStatusSchema = z.object({ is_maintenance: z.boolean(), message: z.string() });
export type MaintenanceStatus = z.infer<typeof maintenanceStatusSchema>;

export const maintenanceStartSchema = z.object({
  start: z.literal(true),
  message: z.string().trim().min(1).max(500).optional(),
});
export const maintenanceStopSchema = z.object({ stop: z.literal(true) });

export const marketDataSchema = z.object({
  price: z.number(),
  marketCap: z.number(),
  volume24h: z.number(),
  transactions: z.object({ buys: z.number().int(), sells: z.number().int() }),
});
export type MarketData = z.infer<typeof marketDataSchema>;

/** GET /api/v1/market: the server's cached reading of the configured DEX pair API. */
export const marketResponseSchema = z.object({
  /** False when no DEX pair API is configured (the calculator then uses its default price). */
  configured: z.boolean(),
  market: marketDataSchema.nullable(),
  /** 'Failed to fetch market data' or 'Invalid response format' after the last refresh failed. */
  error: z.string().nullable(),
  updatedAt: isoTime.nullable(),
});
export type MarketResponse = z.infer<typeof marketResponseSchema>;

/** GET /api/v1/client-config: what the web app needs to know about this deployment. */
export const clientConfigSchema = z.object({
  /** The Solana JSON-RPC endpoint browsers use to build and confirm transactions. */
  rpcUrl: z.string(),
  /** Whether the demo streaming platform is enabled (local configurations only). */
  demoPlatform: z.boolean(),
  links: z.object({
    dexChart: z.string().nullable(),
    tokenExplorer: z.string().nullable(),
    /** An explorer page for an address, with `{address}` where the address goes. */
    addressExplorer: z.string().nullable(),
  }),
});
export type ClientConfig = z.infer<typeof clientConfigSchema>;

/** A dependency's state (never an error's text): answering, not answering, or being restarted by the API. */
export const dependencyStateSchema = z.enum(['ok', 'unreachable', 'restarting']);
const componentHealth = z.object({
  ok: z.boolean(),
  state: dependencyStateSchema,
  /** Times the API restarted it (the embedded PostgreSQL and the local chain, which it supervises). */
  restarts: z.number().int().min(0).optional(),
});
export const healthSchema = z.object({
  status: z.enum(['ok', 'degraded']),
  database: componentHealth,
  chain: componentHealth,
  /** With REDIS_URL only. */
  redis: componentHealth.optional(),
});
/** GET /health/live. */
export const liveHealthSchema = z.object({ status: z.literal('ok') });
/** GET /health/ready: the health and whether to send traffic (or `{ status: 'shutting_down' }`, 503). */
export const readyHealthSchema = z.union([
  healthSchema.extend({ status: z.enum(['ready', 'not_ready']) }),
  z.object({ status: z.literal('shutting_down') }),
]);
export type Health = z.infer<typeof healthSchema>;

// ---- socket events ----------------------------------------------------------------------

const tierName = z.string().trim().min(1).max(32);

/** What clients emit; every payload is validated and every named wallet must be the signed-in one. */
export const clientEvents = {
  'join-room': z.strictObject({ platform: streamPlatformSchema, walletId: walletSchema }),
  'leave-room': z.strictObject({ platform: streamPlatformSchema, walletId: walletSchema }),
  'start-stream': z.strictObject({
    platform: streamPlatformSchema,
    wallet: walletSchema,
    username: z.string().trim().min(1).max(64),
    tier: tierName,
  }),
  'stop-stream': z.strictObject({ platform: streamPlatformSchema, wallet: walletSchema }),
  'increase-rate': z.strictObject({ platform: streamPlatformSchema, wallet: walletSchema }),
  'collect-rewards': z.strictObject({ signature: signatureSchema, wallet: walletSchema }),
  'activate-tier': z.strictObject({ signature: signatureSchema, tier: tierName }),
  'deactivate-tier': z.strictObject({ signature: signatureSchema, tier: tierName.optional() }),
} as const;
export type ClientEventName = keyof typeof clientEvents;
export type ClientEventPayload<E extends ClientEventName> = z.infer<(typeof clientEvents)[E]>;

/** Token amounts on the wire are whole tokens (numbers); the server stores base units. */
export const serverEvents = {
  'stream-started': z.object({
    /** When the session started on the server (its durations count from here). */
    startedAt: isoTime,
    miningRate: z.number(),
    /** The engagement factor's boost included in miningRate, in percent (0 when off). */
    engagementBoostPercent: z.number().nonnegative(),
    platform: streamPlatformSchema,
    currentDailyDuration: z.number(),
    dailyLimitSeconds: z.number().int().positive(),
    nextRateIncrease: isoTime.nullable(),
  }),
  'mining-update': z.object({
    duration: z.number(),
    minedAmount: z.number(),
    miningRate: z.number(),
    platform: streamPlatformSchema,
    currentDailyDuration: z.number(),
  }),
  'stream-stopped': z.object({
    duration: z.number(),
    amountMined: z.number(),
    pendingReward: z.number(),
    reason: z.enum([
      'stopped',
      'left-room',
      'disconnected',
      'daily-limit',
      'rate-increased',
      'maintenance',
      'tier-deactivated',
      'not-live',
      'access-revoked',
    ]),
  }),
  'joined-room': z.object({ platform: streamPlatformSchema, room: z.string() }),
  'room-data': z.object({
    platform: streamPlatformSchema,
    room: z.string(),
    username: z.string(),
    isLive: z.boolean(),
    viewers: z.number().int().nonnegative(),
  }),
  'room-error': z.object({ message: z.string() }),
  'left-room': z.object({ platform: streamPlatformSchema }),
  'tier-activated': z.object({ tier: z.string(), signature: signatureSchema, activatedAt: isoTime }),
  'tier-deactivated': z.object({ tier: z.string(), signature: signatureSchema }),
  'tier-error': z.object({ message: z.string() }),
  'maintenance-starting': z.object({ message: z.string() }),
  'maintenance-ended': z.object({}),
  error: z.object({ message: z.string(), event: z.string().optional() }),
  dailyLimitReached: z.object({ message: z.string(), currentDailyDuration: z.number() }),
  'rate-increased': z.object({
    status: z.literal('success'),
    miningRate: z.number(),
    nextRateIncrease: isoTime.nullable(),
  }),
  'rewards-collected': z.object({ amount: z.number(), signature: signatureSchema }),
  'rewards-error': z.object({ message: z.string() }),
  'twitch:not-live': z.object({ message: z.string() }),
} as const;
export type ServerEventName = keyof typeof serverEvents;
export type ServerEventPayload<E extends ServerEventName> = z.infer<(typeof serverEvents)[E]>;

/** Twitch popup → opener message (accepted only same-origin, with an access token). */
export const twitchAuthMessageSchema = z.object({
  type: z.literal('TWITCH_AUTH'),
  access_token: z.string().min(1),
  expires_in: z.coerce.number().int().positive().optional(),
  /** The OAuth state Twitch returned (checked by the server). */
  state: z.string().optional(),
});

// ---- client-side state shapes (spec §3) ----------------------------------------------------

/** The live socket state the dashboard renders. */
export const liveStateSchema = z.object({
  connected: z.boolean(),
  error: z.string().nullable(),
  roomData: serverEvents['room-data'].nullable(),
  isLive: z.boolean(),
  streamDuration: z.number().nonnegative(),
  minedAmount: z.number().nonnegative(),
  miningRate: z.number().nonnegative(),
  pendingReward: z.number().nonnegative(),
  platform: streamPlatformSchema.nullable(),
  maintenance: z.boolean(),
  nextRateIncrease: isoTime.nullable(),
  currentDailyDuration: z.number().nonnegative(),
});
export type LiveState = z.infer<typeof liveStateSchema>;

export const miningStateSchema = z.object({
  activeTier: z.string().nullable(),
  isMining: z.boolean(),
  isLoading: z.boolean(),
  error: z.string().nullable(),
});
export type MiningState = z.infer<typeof miningStateSchema>;

export const walletDataSchema = z.object({
  balance: z.number().nonnegative(),
  tier: z.enum(['starter', 'pro', 'elite']),
  loading: z.boolean(),
  error: z.string().nullable(),
});
export type WalletData = z.infer<typeof walletDataSchema>;

export const streamerResponseSchema = z.object({ success: z.boolean(), streamer: streamerSchema });

const miningSessionSummary = z.object({
  platform: streamPlatformSchema,
  tier: z.string(),
  miningRate: z.number().nonnegative(),
  startedAt: isoTime,
  endedAt: isoTime.nullable(),
  duration: z.number().nonnegative(),
  amountMined: z.number().nonnegative(),
  endReason: z.string().nullable(),
});

export const miningStatsSchema = z.object({
  wallet: walletSchema,
  tier: z.string().nullable(),
  isLive: z.boolean(),
  miningRate: z.number().nonnegative(),
  nextRateIncrease: isoTime.nullable(),
  timezone: z.string(),
  /** Live seconds inside today's local day (streamer's time zone), the open session included. */
  currentDailyDuration: z.number().nonnegative(),
  dailyLimitSeconds: z.number().int().positive(),
  remainingDailySeconds: z.number().nonnegative(),
  /** 'Approaching daily limit' under 1800 s left; 'Daily limit reached. Mining will resume tomorrow' at 0. */
  dailyStatus: z.enum(['ok', 'approaching', 'reached']),
  dailyMessage: z.string().nullable(),
  pendingReward: z.number().nonnegative(),
  totalMined: z.number().nonnegative(),
  totalCollected: z.number().nonnegative(),
  totalSeconds: z.number().nonnegative(),
  sessionCount: z.number().int().nonnegative(),
  recentSessions: z.array(miningSessionSummary),
});
export type MiningStats = z.infer<typeof miningStatsSchema>;

// ---- local development ---------------------------------------------------------------------

/** The local chain's faucet (local mode only): SOL for fees and STRM to stake. */
export const faucetRequestSchema = z.object({
  wallet: walletSchema,
  strm: z.number().int().min(0).max(2_000_000).default(1_100_000),
  sol: z.number().min(0).max(10).default(2),
});
/** POST /dev/demo/account (demo platform only): the demo account, verified at once. */
export const demoAccountRequestSchema = z.strictObject({
  username: z
    .string()
    .trim()
    .min(1, 'Username is required')
    .max(64)
    .regex(/^@?[A-Za-z0-9_.]+$/, 'Invalid username'),
});
export const demoAccountResponseSchema = z.object({
  success: z.boolean(),
  platform: z.literal('demo'),
  username: z.string(),
  isVerified: z.boolean(),
});
/** PUT /dev/demo/live (demo platform only): put the demo account on or off air. */
export const demoLiveRequestSchema = z.strictObject({
  live: z.boolean(),
  viewers: z.number().int().min(0).max(1_000_000).optional(),
});
export const demoLiveResponseSchema = z.object({
  success: z.boolean(),
  username: z.string(),
  live: z.boolean(),
  viewers: z.number().int().nonnegative(),
});
export const faucetResponseSchema = z.object({
  wallet: walletSchema,
  sol: z.number(),
  strm: z.number(),
  tokenAccount: z.string(),
});
