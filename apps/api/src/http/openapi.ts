// The REST API's OpenAPI 3.1 description, built from the shared zod schemas (one source: the routes parse
// with the same schemas) and the operations listed in openapi-core.ts and the areas' own (openapi-overlay.ts).
import { apiErrorSchema } from '@strm/shared';
import type { RequestHandler } from 'express';
import { z } from 'zod';
import { DomainError } from '../errors.ts';
import { CORE_OPERATIONS } from './openapi-core.ts';
import type { OpenApiFeatures, Operation } from './openapi-operation.ts';
import { OVERLAY_OPERATIONS } from './openapi-overlay.ts';
import { OAUTH_PLATFORM_OPERATIONS } from './openapi-oauth-platforms.ts';

type JsonSchema = Record<string, unknown>;

export type { OpenApiFeatures };

/** Every operation of the REST API: the core ones and the areas' own. */
export const OPERATIONS: readonly Operation[] = [
  ...CORE_OPERATIONS,
  ...OVERLAY_OPERATIONS,
  ...OAUTH_PLATFORM_OPERATIONS,
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
      next(new DomainError('method_not_allowed', `${req.method} is not allowed on ${req.path}`));
      return;
    }
    next();
  };
}
