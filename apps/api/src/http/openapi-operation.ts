// One operation of the REST API's OpenAPI description, declared beside its route (openapi-route.ts).
import type { z } from 'zod';

export type Method = 'get' | 'post' | 'put' | 'delete';
export type Auth = 'none' | 'wallet' | 'admin';
/** Which optional routes this instance serves (the description lists exactly the routes it has). */
export interface OpenApiFeatures {
  /** POST /dev/faucet: beside the project's local chain only. */
  faucet: boolean;
  /** /dev/demo/*: the demo platform. */
  demo: boolean;
}

export interface Operation {
  method: Method;
  /** Express syntax, below /api/v1 (`/admin/admins/:wallet`). */
  path: string;
  tag: string;
  summary: string;
  auth: Auth;
  query?: z.ZodObject;
  params?: z.ZodObject;
  body?: z.ZodType;
  /** The success answer (status 200 unless given). */
  ok: { schema?: z.ZodType; status?: number; description?: string; text?: boolean };
  /** Error answers beyond the ones every operation of its kind has (400, 401, 403, 413, 429). */
  errors?: Record<number, string>;
  /** Errors are answered without a body (the Twitch webhook answers Twitch, not people). */
  bareErrors?: boolean;
  only?: keyof OpenApiFeatures;
}
