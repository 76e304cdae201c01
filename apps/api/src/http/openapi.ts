// The REST API's OpenAPI 3.1 description, built from the shared zod schemas (one source: the routes parse
// with the same schemas). Every route under /api/v1 is listed in OPERATIONS; test/openapi.test.ts walks the
// Express router and fails on a route without an operation or an operation without a route.
import {
  adminChangeSchema,
  adminListSchema,
  apiErrorSchema,
  auditListSchema,
  auditQuerySchema,
  authenticateRequestSchema,
  authenticateResponseSchema,
  betaAccessChangeSchema,
  betaAccessResponseSchema,
  clientConfigSchema,
  demoAccountRequestSchema,
  demoAccountResponseSchema,
  demoLiveRequestSchema,
  demoLiveResponseSchema,
  faucetRequestSchema,
  faucetResponseSchema,
  healthSchema,
  liveHealthSchema,
  maintenanceStartSchema,
  maintenanceStatusSchema,
  maintenanceStopSchema,
  marketResponseSchema,
  miningStatsSchema,
  nonceQuerySchema,
  nonceResponseSchema,
  pendingRewardRequestSchema,
  pendingRewardResponseSchema,
  platformsResponseSchema,
  readyHealthSchema,
  registrationListQuerySchema,
  registrationListResponseSchema,
  registrationRequestSchema,
  registrationSchema,
  streamerResponseSchema,
  streamerValidationRequestSchema,
  tierResponseSchema,
  tiktokExchangeCodeRequestSchema,
  tiktokExchangeCodeResponseSchema,
  timezoneRequestSchema,
  timezoneResponseSchema,
  tokenBalanceResponseSchema,
  twitchAuthResponseSchema,
  updateUsernameRequestSchema,
  updateUsernameResponseSchema,
  verificationResponseSchema,
  verifyStreamerRequestSchema,
  walletParamsSchema,
  walletQuerySchema,
  walletSchema,
} from '@strm/shared';
import type { RequestHandler } from 'express';
import { z } from 'zod';
import { AppError } from './app-error.ts';
import type { OpenApiFeatures, Operation } from './openapi-operation.ts';
import { OVERLAY_OPERATIONS } from './openapi-overlay.ts';

export type { OpenApiFeatures };

type JsonSchema = Record<string, unknown>;

const ownWalletQuery = walletQuerySchema.partial();

export const OPERATIONS: readonly Operation[] = [
  {
    method: 'get',
    path: '/health',
    tag: 'Health',
    summary: 'The database and the chain (503 without the database)',
    auth: 'none',
    ok: { schema: healthSchema },
    errors: { 503: 'The database is unreachable' },
  },
  {
    method: 'get',
    path: '/health/live',
    tag: 'Health',
    summary: 'The process answers',
    auth: 'none',
    ok: { schema: liveHealthSchema },
  },
  {
    method: 'get',
    path: '/health/ready',
    tag: 'Health',
    summary: 'Ready for traffic (503 while shutting down or without the database)',
    auth: 'none',
    ok: { schema: readyHealthSchema },
    errors: { 503: 'Shutting down or without its database' },
  },
  {
    method: 'get',
    path: '/openapi.json',
    tag: 'Health',
    summary: 'This description (OpenAPI 3.1)',
    auth: 'none',
    ok: { schema: z.looseObject({ openapi: z.string() }) },
  },
  {
    method: 'get',
    path: '/tiers',
    tag: 'Mining',
    summary: 'The mining tiers, ascending',
    auth: 'none',
    ok: { schema: tierResponseSchema },
  },
  {
    method: 'post',
    path: '/dev/faucet',
    tag: 'Development',
    summary: 'SOL and STRM for a wallet on the local chain',
    auth: 'none',
    body: faucetRequestSchema,
    ok: { schema: faucetResponseSchema },
    only: 'faucet',
  },
  {
    method: 'get',
    path: '/nonce',
    tag: 'Sign-in',
    summary: 'A single-use nonce and the Sign-In-With-Solana message to sign',
    auth: 'none',
    query: nonceQuerySchema,
    ok: { schema: nonceResponseSchema },
    errors: { 401: 'Not a valid public key (it does not decode to 32 bytes)' },
  },
  {
    method: 'post',
    path: '/authenticate',
    tag: 'Sign-in',
    summary: 'Exchange the signed message for a session token (bearer JWT)',
    auth: 'none',
    body: authenticateRequestSchema,
    ok: { schema: authenticateResponseSchema },
    errors: { 401: 'The nonce or the signature is refused' },
  },
  {
    method: 'post',
    path: '/registrations',
    tag: 'Beta',
    summary: 'Register the signed-in wallet for the beta (balance read from the chain)',
    auth: 'wallet',
    body: registrationRequestSchema.extend({ wallet: walletSchema.optional() }),
    ok: { schema: registrationSchema, status: 201 },
    errors: { 409: 'This wallet is already registered', 503: 'The chain is unreachable' },
  },
  {
    method: 'get',
    path: '/registrations/me',
    tag: 'Beta',
    summary: "The signed-in wallet's registration",
    auth: 'wallet',
    ok: { schema: registrationSchema },
    errors: { 404: 'This wallet has not registered' },
  },
  {
    method: 'get',
    path: '/beta-access',
    tag: 'Beta',
    summary: 'Whether the signed-in wallet has beta access',
    auth: 'wallet',
    query: ownWalletQuery,
    ok: { schema: betaAccessResponseSchema },
  },
  {
    method: 'get',
    path: '/token-balance',
    tag: 'Beta',
    summary: "The signed-in wallet's token balance, read from the chain",
    auth: 'wallet',
    query: ownWalletQuery,
    ok: { schema: tokenBalanceResponseSchema },
    errors: { 503: 'The chain is unreachable' },
  },
  {
    method: 'get',
    path: '/maintenance',
    tag: 'Maintenance',
    summary: 'Whether the platform is in maintenance, and its message',
    auth: 'none',
    ok: { schema: maintenanceStatusSchema },
  },
  {
    method: 'post',
    path: '/maintenance/start',
    tag: 'Maintenance',
    summary: 'Start maintenance (live sessions stop); audited',
    auth: 'admin',
    body: maintenanceStartSchema,
    ok: { schema: maintenanceStatusSchema },
  },
  {
    method: 'post',
    path: '/maintenance/stop',
    tag: 'Maintenance',
    summary: 'End maintenance; audited',
    auth: 'admin',
    body: maintenanceStopSchema,
    ok: { schema: maintenanceStatusSchema },
  },
  {
    method: 'get',
    path: '/market',
    tag: 'Market',
    summary: "The token's market statistics (cached)",
    auth: 'none',
    ok: { schema: marketResponseSchema },
  },
  {
    method: 'get',
    path: '/client-config',
    tag: 'Market',
    summary: "This deployment's settings for the web app",
    auth: 'none',
    ok: { schema: clientConfigSchema },
  },
  {
    method: 'get',
    path: '/streamer',
    tag: 'Streamer',
    summary: "The signed-in wallet's streamer record, admin flag and mining state",
    auth: 'wallet',
    query: ownWalletQuery,
    ok: { schema: streamerResponseSchema },
  },
  {
    method: 'get',
    path: '/streamer/mining-stats',
    tag: 'Streamer',
    summary: "The signed-in wallet's mining statistics and recent sessions",
    auth: 'wallet',
    query: ownWalletQuery,
    ok: { schema: miningStatsSchema },
  },
  {
    method: 'put',
    path: '/streamer/timezone',
    tag: 'Streamer',
    summary: "Set the streamer's time zone (changes are limited)",
    auth: 'wallet',
    body: timezoneRequestSchema,
    ok: { schema: timezoneResponseSchema },
    errors: { 409: 'No change left, or the streamer is live' },
  },
  {
    method: 'post',
    path: '/streamer/pending-reward',
    tag: 'Admin',
    summary: "Set another streamer's pending reward, with a reason; recorded",
    auth: 'admin',
    body: pendingRewardRequestSchema,
    ok: { schema: pendingRewardResponseSchema },
    errors: { 409: 'The streamer is mining' },
  },
  {
    method: 'post',
    path: '/dev/demo/account',
    tag: 'Development',
    summary: 'Create or rename the demo platform account (verified at once)',
    auth: 'wallet',
    body: demoAccountRequestSchema,
    ok: { schema: demoAccountResponseSchema },
    errors: { 409: 'The username belongs to another wallet' },
    only: 'demo',
  },
  {
    method: 'put',
    path: '/dev/demo/live',
    tag: 'Development',
    summary: 'Put the demo account on or off air',
    auth: 'wallet',
    body: demoLiveRequestSchema,
    ok: { schema: demoLiveResponseSchema },
    errors: { 404: 'No demo account yet' },
    only: 'demo',
  },
  {
    method: 'get',
    path: '/twitch/auth',
    tag: 'Platforms',
    summary: "Twitch's authorisation URL for this attempt (with its single-use state)",
    auth: 'wallet',
    ok: { schema: twitchAuthResponseSchema },
  },
  {
    method: 'post',
    path: '/twitch/eventsub',
    tag: 'Platforms',
    summary: 'Twitch EventSub webhook (signed with TWITCH_EVENTSUB_SECRET, no bearer token)',
    auth: 'none',
    body: z.looseObject({}),
    ok: { text: true, description: 'The challenge (verification) or an empty answer' },
    errors: {
      204: 'Notification accepted',
      403: 'Bad signature or too old',
      404: 'EventSub is not configured',
    },
    bareErrors: true,
  },
  {
    method: 'get',
    path: '/streamer-platforms',
    tag: 'Platforms',
    summary: "The signed-in wallet's platform accounts and whether each is verified",
    auth: 'wallet',
    query: ownWalletQuery,
    ok: { schema: platformsResponseSchema },
  },
  {
    method: 'post',
    path: '/update-streamer-username',
    tag: 'Platforms',
    summary: 'Change a platform username (to be verified again)',
    auth: 'wallet',
    body: updateUsernameRequestSchema,
    ok: { schema: updateUsernameResponseSchema },
    errors: { 409: 'The username is taken or the streamer is live' },
  },
  {
    method: 'post',
    path: '/streamer-validation',
    tag: 'Platforms',
    summary: 'A TikTok bio verification code',
    auth: 'wallet',
    body: streamerValidationRequestSchema,
    ok: { schema: verificationResponseSchema },
  },
  {
    method: 'post',
    path: '/verify-streamer',
    tag: 'Platforms',
    summary: 'Verify a platform account (bio code or OAuth token)',
    auth: 'wallet',
    body: verifyStreamerRequestSchema,
    ok: { schema: verificationResponseSchema },
    errors: {
      409: 'The account belongs to another wallet',
      502: 'The platform failed',
      503: 'The platform is unreachable',
    },
  },
  {
    method: 'post',
    path: '/tiktok/exchange-code',
    tag: 'Platforms',
    summary: "Exchange TikTok's authorisation code (TIKTOK_API only)",
    auth: 'wallet',
    body: tiktokExchangeCodeRequestSchema,
    ok: { schema: tiktokExchangeCodeResponseSchema },
    errors: { 404: 'The TikTok API is off', 502: 'TikTok failed', 503: 'TikTok is unreachable' },
  },
  {
    method: 'get',
    path: '/tiktok/auth',
    tag: 'Platforms',
    summary: "TikTok Login Kit's authorisation URL for this attempt (TIKTOK_API only)",
    auth: 'wallet',
    ok: { schema: twitchAuthResponseSchema },
    errors: { 404: 'The TikTok API is off' },
  },
  {
    method: 'get',
    path: '/admin/registrations',
    tag: 'Admin',
    summary: 'Beta registrations: filters, search, sort and paging',
    auth: 'admin',
    query: registrationListQuerySchema,
    ok: { schema: registrationListResponseSchema },
  },
  {
    method: 'put',
    path: '/admin/beta-access/:wallet',
    tag: 'Admin',
    summary: 'Grant beta access (idempotent); audited',
    auth: 'admin',
    params: walletParamsSchema,
    ok: { schema: betaAccessChangeSchema },
  },
  {
    method: 'delete',
    path: '/admin/beta-access/:wallet',
    tag: 'Admin',
    summary: 'Revoke beta access; audited',
    auth: 'admin',
    params: walletParamsSchema,
    ok: { schema: betaAccessChangeSchema },
    errors: { 404: 'This wallet has no beta access' },
  },
  {
    method: 'get',
    path: '/admin/admins',
    tag: 'Admin',
    summary: 'The admins (ADMIN_WALLETS and promoted)',
    auth: 'admin',
    ok: { schema: adminListSchema },
  },
  {
    method: 'put',
    path: '/admin/admins/:wallet',
    tag: 'Admin',
    summary: 'Promote a wallet to admin (idempotent); audited',
    auth: 'admin',
    params: walletParamsSchema,
    ok: { schema: adminChangeSchema },
  },
  {
    method: 'delete',
    path: '/admin/admins/:wallet',
    tag: 'Admin',
    summary: 'Demote a promoted admin; audited',
    auth: 'admin',
    params: walletParamsSchema,
    ok: { schema: adminChangeSchema },
    errors: { 404: 'This wallet is not an admin', 409: 'An admin through ADMIN_WALLETS' },
  },
  {
    method: 'get',
    path: '/admin/audit',
    tag: 'Admin',
    summary: 'The audit log (who, what, when), newest first',
    auth: 'admin',
    query: auditQuerySchema,
    ok: { schema: auditListSchema },
  },
  ...OVERLAY_OPERATIONS,
];

/** The operations this instance serves. */
export function operationsFor(features: OpenApiFeatures): Operation[] {
  return OPERATIONS.filter((op) => !op.only || features[op.only]);
}

const ERROR_TEXT: Record<number, string> = {
  400: 'The request is refused: malformed or invalid input',
  401: 'Authentication required, or the token is invalid or expired',
  403: 'Not allowed (an admin route, another wallet named, or no beta access)',
  404: 'Not found',
  409: 'Conflict',
  413: 'Request body too large',
  429: 'Too many requests',
  502: 'An upstream platform failed',
  503: 'A dependency is unavailable',
};

function jsonSchema(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  const out = z.toJSONSchema(schema, {
    target: 'draft-2020-12',
    io,
    unrepresentable: 'any',
    override: ({ zodSchema, jsonSchema: js }) => {
      // Query strings coerced to dates (from/to) are ISO 8601 text on the wire.
      if (zodSchema._zod.def.type === 'date') Object.assign(js, { type: 'string', format: 'date-time' });
    },
  }) as JsonSchema;
  delete out.$schema;
  return out;
}

function parameters(schema: z.ZodObject, where: 'query' | 'path') {
  const js = jsonSchema(schema, 'input') as { properties?: Record<string, JsonSchema>; required?: string[] };
  return Object.entries(js.properties ?? {}).map(([name, s]) => ({
    name,
    in: where,
    required: where === 'path' || (js.required ?? []).includes(name),
    schema: s,
  }));
}

const errorRef = (description: string) => ({
  description,
  content: { 'application/json': { schema: { $ref: '#/components/schemas/ApiError' } } },
});

/** `/admin/admins/:wallet` → `/admin/admins/{wallet}`. */
export const openApiPath = (expressPath: string) => expressPath.replace(/:(\w+)/g, '{$1}');

export function buildOpenApi(features: OpenApiFeatures, serverUrl = '/api/v1') {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const op of operationsFor(features)) {
    const responses: Record<string, unknown> = {};
    const okStatus = String(op.ok.status ?? 200);
    responses[okStatus] = op.ok.text
      ? { description: op.ok.description ?? 'OK', content: { 'text/plain': { schema: { type: 'string' } } } }
      : {
          description: op.ok.description ?? 'OK',
          content: { 'application/json': { schema: jsonSchema(op.ok.schema ?? z.object({}), 'output') } },
        };
    const statuses = new Set<number>([429]);
    if (op.query || op.params || op.body) statuses.add(400);
    if (op.body) statuses.add(413);
    if (op.auth !== 'none') statuses.add(401).add(403);
    for (const status of Object.keys(op.errors ?? {})) statuses.add(Number(status));
    for (const status of [...statuses].sort()) {
      const text = op.errors?.[status] ?? ERROR_TEXT[status] ?? 'Error';
      responses[String(status)] =
        status < 300 || (op.bareErrors && status !== 429) ? { description: text } : errorRef(text);
    }
    const operation: Record<string, unknown> = {
      operationId: `${op.method}${op.path.replace(/[/:.-](\w)/g, (_m, c: string) => c.toUpperCase())}`,
      tags: [op.tag],
      summary: op.summary,
      security: op.auth === 'none' ? [] : [{ bearerAuth: [] }],
      parameters: [
        ...(op.params ? parameters(op.params, 'path') : []),
        ...(op.query ? parameters(op.query, 'query') : []),
      ],
      responses,
    };
    if (op.auth === 'admin') operation.description = 'Admins only (403 for other wallets).';
    if (op.body) {
      operation.requestBody = {
        required: true,
        content: { 'application/json': { schema: jsonSchema(op.body, 'input') } },
      };
    }
    const path = openApiPath(op.path);
    paths[path] ??= {};
    paths[path][op.method] = operation;
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'STRM Mining Platform API',
      version: '1.0.0',
      description:
        'REST API of the STRM Mining Platform. Sign in with GET /nonce and POST /authenticate, then send the ' +
        'token as `Authorization: Bearer <token>`. Every error is `{ error, message }`: a stable code and ' +
        'a message a user may read. Live mining runs over Socket.IO on the same origin.',
    },
    servers: [{ url: serverUrl }],
    tags: [...new Set(OPERATIONS.map((op) => op.tag))].map((name) => ({ name })),
    paths,
    components: {
      securitySchemes: {
        bearerAuth: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'JWT',
          description: 'The session token from POST /authenticate',
        },
      },
      schemas: { ApiError: jsonSchema(apiErrorSchema, 'output') },
    },
  };
}

/**
 * 405 with an Allow header for a described path asked with a method it does not have (TRACE, PATCH, …);
 * other unknown paths fall through to the 404.
 */
export function methodNotAllowed(features: OpenApiFeatures): RequestHandler {
  const byPath = new Map<string, { pattern: RegExp; methods: Set<string> }>();
  for (const op of operationsFor(features)) {
    const entry = byPath.get(op.path) ?? {
      pattern: new RegExp(`^${op.path.replace(/[.]/g, '\\.').replace(/:\w+/g, '[^/]+')}/?$`),
      methods: new Set<string>(['OPTIONS']),
    };
    entry.methods.add(op.method.toUpperCase());
    if (op.method === 'get') entry.methods.add('HEAD');
    byPath.set(op.path, entry);
  }
  return (req, res, next) => {
    for (const { pattern, methods } of byPath.values()) {
      if (!pattern.test(req.path) || methods.has(req.method)) continue;
      res.set('Allow', [...methods].join(', '));
      next(new AppError(405, 'method_not_allowed', `${req.method} is not allowed on ${req.path}`));
      return;
    }
    next();
  };
}
