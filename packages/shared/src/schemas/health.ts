import { z } from 'zod';

// The API's health endpoints (the web app never reads them).

/** A dependency's state (never an error's text): answering, not answering, or being restarted by the API. */
const dependencyStateSchema = z.enum(['ok', 'unreachable', 'restarting']);
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
