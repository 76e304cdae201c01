import { accessSync, constants } from 'node:fs';
import { join, resolve } from 'node:path';
import {
  INTERVALS_MS,
  MINING_CHECKPOINT_INTERVAL_MS,
  MINING_UPDATE_INTERVAL_MS,
  SOCKET_GRACE_PERIOD_MS,
  TIKTOK_API_ENABLED,
  walletSchema,
} from '@strm/shared';
import { z } from 'zod';
import { repoRoot } from './paths.ts';
import {
  csv,
  emptyAsUndefined,
  httpUrl,
  onOff,
  origin,
  perSecond,
  port,
  postgresUrl,
  redisUrl,
  trustProxy,
  wsUrl,
} from './config-values.ts';
import { oauthPlatformsConfig, oauthPlatformsEnv, oauthPlatformsProblem } from './oauth-platforms-config.ts';

export { repoRoot };

const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  HOST: z.string().min(1).default('127.0.0.1'),
  PORT: port.default(3000),
  DATA_DIR: z.string().min(1).default(join(repoRoot, '.data')),
  DATABASE_URL: z.preprocess(emptyAsUndefined, postgresUrl.optional()),
  EMBEDDED_PG_PORT: port.default(54_320),
  SOLANA_RPC_URL: z.preprocess(emptyAsUndefined, httpUrl.optional()),
  SOLANA_WS_URL: z.preprocess(emptyAsUndefined, wsUrl.optional()),
  LOCAL_CHAIN_PORT: port.default(8899),
  LOCAL_CHAIN_HOST: z.string().min(1).default('127.0.0.1'),
  LOCAL_CHAIN_BUILD: onOff.default('on'),
  LOCAL_CHAIN_DIR: z.preprocess(emptyAsUndefined, z.string().min(1).optional()),
  JWT_SECRET: z.preprocess(emptyAsUndefined, z.string().min(32, 'must be at least 32 characters').optional()),
  JWT_TTL_SECONDS: z.coerce.number().int().positive().default(86_400),
  ADMIN_WALLETS: csv(walletSchema),
  WEB_ORIGINS: csv(origin),
  SIGN_IN_DOMAIN: z.preprocess(emptyAsUndefined, z.string().optional()),
  WEB_DIST: z.string().default(join(repoRoot, 'apps', 'web', 'dist')),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).optional(),
  RATE_LIMIT_PER_MINUTE: z.coerce.number().int().positive().default(600),
  TRUST_PROXY: trustProxy.default(['loopback']),
  // Socket.IO abuse limits (per instance).
  SOCKETS_PER_WALLET: z.coerce.number().int().positive().default(10),
  SOCKET_HANDSHAKES_PER_MINUTE: z.coerce.number().int().positive().default(120),
  SOCKET_EVENTS_PER_SECOND: perSecond.default(5),
  SOCKET_EVENT_BURST: z.coerce.number().int().positive().default(20),
  WALLET_EVENTS_PER_SECOND: perSecond.default(10),
  WALLET_EVENT_BURST: z.coerce.number().int().positive().default(40),
  TREASURY_KEYPAIR_PATH: z.preprocess(emptyAsUndefined, z.string().optional()),
  DEMO_PLATFORM: z.preprocess(emptyAsUndefined, onOff.optional()),
  REDIS_URL: z.preprocess(emptyAsUndefined, redisUrl.optional()),
  METRICS_TOKEN: z.preprocess(
    emptyAsUndefined,
    z.string().min(16, 'must be at least 16 characters').optional(),
  ),
  SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().positive().default(10_000),
  AUTH_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().positive().default(20),
  PENDING_REWARD_ADJUSTMENT_MAX: z.coerce.number().int().min(0).max(1_000_000_000).default(10_000),
  // How long an overlay link works (days); a new link (rotate) starts the count again.
  OVERLAY_LINK_TTL_DAYS: z.coerce.number().int().min(1).max(3650).default(90),
  // What admins' adjustments may raise pending rewards by (whole tokens): per wallet and per admin in 24 h,
  // all together in 30 days; a raise above the approval threshold waits for a second admin.
  PENDING_REWARD_RAISE_PER_WALLET_DAY: z.coerce.number().int().min(0).max(1_000_000_000).default(1_000),
  PENDING_REWARD_RAISE_PER_ADMIN_DAY: z.coerce.number().int().min(0).max(1_000_000_000).default(2_000),
  PENDING_REWARD_RAISE_TOTAL_30_DAYS: z.coerce.number().int().min(0).max(1_000_000_000).default(10_000),
  PENDING_REWARD_RAISE_APPROVAL_ABOVE: z.coerce.number().int().min(0).max(1_000_000_000).default(100),
  // A promoted admin approves no raise until this long after its promotion.
  ADMIN_APPROVAL_COOLDOWN_HOURS: z.coerce.number().int().min(0).max(8_760).default(168),
  // The mining engine.
  MINING_UPDATE_INTERVAL_MS: z.coerce.number().int().min(100).default(MINING_UPDATE_INTERVAL_MS),
  MINING_CHECKPOINT_INTERVAL_MS: z.coerce.number().int().min(1000).default(MINING_CHECKPOINT_INTERVAL_MS),
  MINING_TICK_MS: z.coerce.number().int().min(5).max(1000).default(10),
  TIERS_REFRESH_MS: z.coerce.number().int().min(100).default(5000),
  CLAIMS_RECONCILE_MS: z.coerce.number().int().min(100).default(10_000),
  SOCKET_GRACE_PERIOD_MS: z.coerce.number().int().min(0).default(SOCKET_GRACE_PERIOD_MS),
  INSTANCE_LEASE_MS: z.coerce.number().int().min(300).default(10_000),
  SESSION_SWEEP_MS: z.coerce.number().int().min(50).default(1000),
  ENGAGEMENT_MAX_BOOST_PERCENT: z.coerce.number().int().min(0).max(100).default(0),
  ENGAGEMENT_VIEWERS_PER_PERCENT: z.coerce.number().int().positive().default(10),
  // Streaming platforms (real base URLs by default; tests point them at local fake servers).
  TWITCH_CLIENT_ID: z.preprocess(emptyAsUndefined, z.string().min(1).optional()),
  TWITCH_CLIENT_SECRET: z.preprocess(emptyAsUndefined, z.string().min(1).optional()),
  TWITCH_AUTH_BASE_URL: httpUrl.default('https://id.twitch.tv'),
  TWITCH_API_BASE_URL: httpUrl.default('https://api.twitch.tv'),
  TWITCH_REDIRECT_URI: z.preprocess(emptyAsUndefined, httpUrl.optional()),
  TWITCH_POLL_INTERVAL_MS: z.coerce.number().int().min(100).default(30_000),
  TWITCH_EVENTSUB_CALLBACK_URL: z.preprocess(emptyAsUndefined, httpUrl.optional()),
  TWITCH_EVENTSUB_SECRET: z.preprocess(
    emptyAsUndefined,
    z.string().min(10, 'must be 10 to 100 characters').max(100, 'must be 10 to 100 characters').optional(),
  ),
  TIKTOK_WEB_BASE_URL: httpUrl.default('https://www.tiktok.com'),
  TIKTOK_OPEN_API_BASE_URL: httpUrl.default('https://open.tiktokapis.com'),
  TIKTOK_POLL_INTERVAL_MS: z.coerce.number().int().min(100).default(30_000),
  TIKTOK_CODE_TTL_SECONDS: z.coerce.number().int().min(60).max(86_400).default(900),
  TIKTOK_API: z.preprocess(emptyAsUndefined, onOff.optional()),
  TIKTOK_CLIENT_KEY: z.preprocess(emptyAsUndefined, z.string().min(1).optional()),
  TIKTOK_CLIENT_SECRET: z.preprocess(emptyAsUndefined, z.string().min(1).optional()),
  TIKTOK_REDIRECT_URI: z.preprocess(emptyAsUndefined, httpUrl.optional()),
  ...oauthPlatformsEnv,
  PLATFORM_HTTP_TIMEOUT_MS: z.coerce.number().int().min(50).max(120_000).default(10_000),
  /** Live detection fails closed: polls in a row that could not confirm a stream before it counts as offline. */
  PLATFORM_MAX_FAILED_POLLS: z.coerce.number().int().min(1).max(100).default(3),
  // Market data and the web app's links.
  DEX_PAIR_API_URL: z.preprocess(emptyAsUndefined, httpUrl.optional()),
  MARKET_REFRESH_MS: z.coerce.number().int().min(1000).default(INTERVALS_MS.marketRefresh),
  DEX_CHART_URL: z.preprocess(emptyAsUndefined, httpUrl.optional()),
  TOKEN_EXPLORER_URL: z.preprocess(emptyAsUndefined, httpUrl.optional()),
  ADDRESS_EXPLORER_URL: z
    .string()
    .regex(/^https?:\/\/\S*\{address\}\S*$/, 'must be an http(s) URL containing {address}')
    .default('https://explorer.solana.com/address/{address}'),
  PUBLIC_SOLANA_RPC_URL: z.preprocess(emptyAsUndefined, httpUrl.optional()),
});

export type Config = ReturnType<typeof finalise>;

/** Every environment variable the API reads (.env.example documents each; a test checks). */
export const configVariables = Object.keys(envSchema.shape);

export class ConfigError extends Error {}

type Env = z.infer<typeof envSchema>;

const loopbackHosts = new Set(['localhost', '[::1]']);

/** An RPC on this machine (the local chain, a solana-test-validator); anything else is a real cluster. */
export function isLocalRpc(url: string): boolean {
  const { hostname } = new URL(url);
  return loopbackHosts.has(hostname) || /^127(\.\d{1,3}){3}$/.test(hostname);
}

/**
 * A configuration that can move real tokens: a treasury keypair, or an RPC that is not on this machine. The
 * demo platform (anyone goes live) and the faucet (anyone gets tokens) are refused with it, whatever
 * NODE_ENV says.
 */
function realMoney(env: Env): boolean {
  return (
    Boolean(env.TREASURY_KEYPAIR_PATH) ||
    (env.SOLANA_RPC_URL !== undefined && !isLocalRpc(env.SOLANA_RPC_URL))
  );
}

/**
 * Whether browsers must not be given this RPC URL: it may carry an API key. Providers put it in the user
 * info (user:pass@), the query (Helius `?api-key=`) or the path (Alchemy `/v2/<key>`, QuickNode
 * `/<token>/`), and a path token cannot be told from a plain path, so only a bare origin counts as public.
 */
export function rpcUrlCarriesCredentials(url: string): boolean {
  const u = new URL(url);
  return Boolean(u.username || u.password || u.search || (u.pathname !== '/' && u.pathname !== ''));
}

function finalise(env: Env) {
  const webOrigins = env.WEB_ORIGINS?.length
    ? env.WEB_ORIGINS
    : [
        `http://127.0.0.1:${env.PORT}`,
        `http://localhost:${env.PORT}`,
        // Vite's dev server (`pnpm dev`).
        'http://127.0.0.1:5173',
        'http://localhost:5173',
      ];
  const signInDomain = env.SIGN_IN_DOMAIN ?? new URL(webOrigins[0]!).host;
  return {
    nodeEnv: env.NODE_ENV,
    host: env.HOST,
    port: env.PORT,
    dataDir: resolve(env.DATA_DIR),
    databaseUrl: env.DATABASE_URL,
    embeddedPgPort: env.EMBEDDED_PG_PORT,
    solanaRpcUrl: env.SOLANA_RPC_URL,
    solanaWsUrl: env.SOLANA_WS_URL,
    localChainPort: env.LOCAL_CHAIN_PORT,
    localChainHost: env.LOCAL_CHAIN_HOST,
    localChainBuild: env.LOCAL_CHAIN_BUILD === 'on',
    /** A local chain another process runs (its data directory): used instead of starting one. */
    localChainDir: env.LOCAL_CHAIN_DIR && resolve(env.LOCAL_CHAIN_DIR),
    jwtSecret: env.JWT_SECRET,
    jwtTtlSeconds: env.JWT_TTL_SECONDS,
    adminWallets: new Set(env.ADMIN_WALLETS),
    webOrigins,
    signInDomain,
    /** The URI named in the sign-in message: the web origin on that domain. */
    signInUri: webOrigins.find((o) => new URL(o).host === signInDomain) ?? `https://${signInDomain}`,
    webDist: resolve(env.WEB_DIST),
    logLevel: env.LOG_LEVEL ?? (env.NODE_ENV === 'test' ? 'silent' : 'info'),
    rateLimitPerMinute: env.RATE_LIMIT_PER_MINUTE,
    /** Express's `trust proxy` (also used for a socket handshake's client address). */
    trustProxy: env.TRUST_PROXY,
    sockets: {
      perWallet: env.SOCKETS_PER_WALLET,
      handshakesPerMinute: env.SOCKET_HANDSHAKES_PER_MINUTE,
      /** Token buckets on client events: per socket, and per wallet across its sockets. */
      socketEvents: { perSecond: env.SOCKET_EVENTS_PER_SECOND, burst: env.SOCKET_EVENT_BURST },
      walletEvents: { perSecond: env.WALLET_EVENTS_PER_SECOND, burst: env.WALLET_EVENT_BURST },
    },
    treasuryKeypairPath: env.TREASURY_KEYPAIR_PATH && resolve(env.TREASURY_KEYPAIR_PATH),
    /** The demo streaming platform (go live without Twitch/TikTok): local configurations only (see realMoney). */
    demoPlatform:
      (env.DEMO_PLATFORM ?? (env.NODE_ENV === 'production' || realMoney(env) ? 'off' : 'on')) === 'on',
    /** The dev faucet: only beside the project's local chain, and never with a treasury keypair. */
    faucet: !env.SOLANA_RPC_URL && !env.TREASURY_KEYPAIR_PATH,
    redisUrl: env.REDIS_URL,
    metricsToken: env.METRICS_TOKEN,
    shutdownTimeoutMs: env.SHUTDOWN_TIMEOUT_MS,
    authRateLimitPerMinute: env.AUTH_RATE_LIMIT_PER_MINUTE,
    /** The most (whole tokens) an admin's adjustment may raise a pending reward to. */
    pendingRewardAdjustmentMax: env.PENDING_REWARD_ADJUSTMENT_MAX,
    overlayLinkTtlMs: env.OVERLAY_LINK_TTL_DAYS * 86_400_000,
    /** The limits on raising pending rewards (whole tokens): services/streamer/adjustments.ts. */
    pendingRewardRaises: {
      perWalletDay: env.PENDING_REWARD_RAISE_PER_WALLET_DAY,
      perAdminDay: env.PENDING_REWARD_RAISE_PER_ADMIN_DAY,
      total30Days: env.PENDING_REWARD_RAISE_TOTAL_30_DAYS,
      approvalAbove: env.PENDING_REWARD_RAISE_APPROVAL_ABOVE,
      approverCooldownMs: env.ADMIN_APPROVAL_COOLDOWN_HOURS * 3_600_000,
    },
    market: { pairApiUrl: env.DEX_PAIR_API_URL, refreshMs: env.MARKET_REFRESH_MS },
    links: {
      dexChart: env.DEX_CHART_URL ?? null,
      tokenExplorer: env.TOKEN_EXPLORER_URL ?? null,
      addressExplorer: env.ADDRESS_EXPLORER_URL,
    },
    /** The RPC endpoint browsers are told to use (defaults to the API's own). */
    publicSolanaRpcUrl: env.PUBLIC_SOLANA_RPC_URL,
    mining: {
      updateIntervalMs: env.MINING_UPDATE_INTERVAL_MS,
      checkpointIntervalMs: env.MINING_CHECKPOINT_INTERVAL_MS,
      tickMs: env.MINING_TICK_MS,
      tiersRefreshMs: env.TIERS_REFRESH_MS,
      claimsReconcileMs: env.CLAIMS_RECONCILE_MS,
      gracePeriodMs: env.SOCKET_GRACE_PERIOD_MS,
      /** An instance that has not renewed its lease for this long is dead; its sessions are taken over. */
      instanceLeaseMs: env.INSTANCE_LEASE_MS,
      /** How often each instance looks for sessions to take over or close. */
      sweepMs: env.SESSION_SWEEP_MS,
      engagement: {
        maxBoostPercent: env.ENGAGEMENT_MAX_BOOST_PERCENT,
        viewersPerPercent: env.ENGAGEMENT_VIEWERS_PER_PERCENT,
      },
    },
    platforms: {
      httpTimeoutMs: env.PLATFORM_HTTP_TIMEOUT_MS,
      twitch: {
        clientId: env.TWITCH_CLIENT_ID,
        clientSecret: env.TWITCH_CLIENT_SECRET,
        authBaseUrl: env.TWITCH_AUTH_BASE_URL.replace(/\/+$/, ''),
        apiBaseUrl: env.TWITCH_API_BASE_URL.replace(/\/+$/, ''),
        /** The implicit grant's return page, /callback (docs/product.md#authorisation-return-page). */
        redirectUri: env.TWITCH_REDIRECT_URI ?? `${webOrigins[0]}/callback`,
        pollIntervalMs: env.TWITCH_POLL_INTERVAL_MS,
        maxFailedPolls: env.PLATFORM_MAX_FAILED_POLLS,
        /** EventSub webhooks (stream.offline) on top of polling, when a public callback URL is configured. */
        eventSub: env.TWITCH_EVENTSUB_CALLBACK_URL
          ? { callbackUrl: env.TWITCH_EVENTSUB_CALLBACK_URL, secret: env.TWITCH_EVENTSUB_SECRET ?? '' }
          : undefined,
      },
      tiktok: {
        webBaseUrl: env.TIKTOK_WEB_BASE_URL.replace(/\/+$/, ''),
        openApiBaseUrl: env.TIKTOK_OPEN_API_BASE_URL.replace(/\/+$/, ''),
        pollIntervalMs: env.TIKTOK_POLL_INTERVAL_MS,
        maxFailedPolls: env.PLATFORM_MAX_FAILED_POLLS,
        codeTtlSeconds: env.TIKTOK_CODE_TTL_SECONDS,
        /** The TikTok API flag (off unless TIKTOK_API=on, docs/product.md#constants): the code exchange. */
        apiEnabled: env.TIKTOK_API === undefined ? TIKTOK_API_ENABLED : env.TIKTOK_API === 'on',
        clientKey: env.TIKTOK_CLIENT_KEY,
        clientSecret: env.TIKTOK_CLIENT_SECRET,
        redirectUri: env.TIKTOK_REDIRECT_URI ?? `${webOrigins[0]}/callback`,
      },
      ...oauthPlatformsConfig(env, webOrigins[0]!),
    },
  };
}

/** Validates the environment; a bad value throws a one-line ConfigError naming the variable. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const name = String(issue.path[0] ?? 'environment');
    throw new ConfigError(`Invalid environment variable ${name}: ${issue.message}`);
  }
  const config = finalise(parsed.data);
  if (config.platforms.twitch.eventSub && !config.platforms.twitch.eventSub.secret) {
    throw new ConfigError(
      'Invalid environment variable TWITCH_EVENTSUB_SECRET: required with TWITCH_EVENTSUB_CALLBACK_URL',
    );
  }
  const problem =
    oauthPlatformsProblem(parsed.data) ??
    (config.nodeEnv === 'production' ? productionProblem(config) : undefined) ??
    realMoneyProblem(parsed.data);
  if (problem) throw new ConfigError(`Invalid environment variable ${problem[0]}: ${problem[1]}`);
  if (config.treasuryKeypairPath && !readable(config.treasuryKeypairPath)) {
    throw new ConfigError(
      `Invalid environment variable TREASURY_KEYPAIR_PATH: no readable file at ${config.treasuryKeypairPath}`,
    );
  }
  if (config.localChainDir && !readable(join(config.localChainDir, 'chain.json'))) {
    throw new ConfigError(
      `Invalid environment variable LOCAL_CHAIN_DIR: no readable chain.json in ${config.localChainDir}`,
    );
  }
  return config;
}

function readable(path: string): boolean {
  try {
    accessSync(path, constants.R_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * Production runs on real services only: no embedded PostgreSQL, no local chain (and so no dev faucet), no
 * demo platform, no generated secrets. The first missing piece, as [variable, reason].
 */
function productionProblem(config: Config): [string, string] | undefined {
  if (!config.jwtSecret) return ['JWT_SECRET', 'required in production'];
  if (!config.databaseUrl)
    return ['DATABASE_URL', 'required in production (the embedded PostgreSQL is for development)'];
  if (!config.solanaRpcUrl)
    return ['SOLANA_RPC_URL', 'required in production (the local chain and its faucet are for development)'];
  if (!config.treasuryKeypairPath)
    return ['TREASURY_KEYPAIR_PATH', 'required in production (the keypair that pays rewards)'];
  if (config.demoPlatform) return ['DEMO_PLATFORM', 'the demo platform is refused in production'];
  if (config.localChainDir) return ['LOCAL_CHAIN_DIR', 'the local chain is refused in production'];
  if (!config.metricsToken)
    return ['METRICS_TOKEN', 'required in production (GET /metrics is otherwise open to anyone)'];
  if (!config.publicSolanaRpcUrl && rpcUrlCarriesCredentials(config.solanaRpcUrl))
    return [
      'PUBLIC_SOLANA_RPC_URL',
      'required in production when SOLANA_RPC_URL has user info, a query or a path (it may carry an API key, and browsers are given the RPC URL)',
    ];
  return undefined;
}

/**
 * Whatever NODE_ENV says: the demo platform and the faucet never run beside a treasury keypair or a
 * non-local RPC. The first conflict, as [variable, reason].
 */
function realMoneyProblem(env: Env): [string, string] | undefined {
  if (env.DEMO_PLATFORM === 'on' && env.TREASURY_KEYPAIR_PATH)
    return [
      'DEMO_PLATFORM',
      'the demo platform is refused with TREASURY_KEYPAIR_PATH (a treasury paying real tokens)',
    ];
  if (env.DEMO_PLATFORM === 'on' && env.SOLANA_RPC_URL && !isLocalRpc(env.SOLANA_RPC_URL))
    return [
      'DEMO_PLATFORM',
      'the demo platform is refused with a SOLANA_RPC_URL that is not on this machine',
    ];
  if (env.LOCAL_CHAIN_DIR && env.SOLANA_RPC_URL)
    return ['LOCAL_CHAIN_DIR', 'names the local chain to use: leave SOLANA_RPC_URL unset with it'];
  if (env.TREASURY_KEYPAIR_PATH && !env.SOLANA_RPC_URL)
    return [
      'TREASURY_KEYPAIR_PATH',
      'refused with the local chain and its faucet (SOLANA_RPC_URL unset): set SOLANA_RPC_URL to the cluster this treasury pays on',
    ];
  return undefined;
}
