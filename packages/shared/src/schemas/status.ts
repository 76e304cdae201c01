import { z } from 'zod';

// What the server says about itself: maintenance, this deployment's settings for the web app, health.

export const maintenanceStatusSchema = z.object({ is_maintenance: z.boolean(), message: z.string() });
export type MaintenanceStatus = z.infer<typeof maintenanceStatusSchema>;

export const maintenanceStartSchema = z.object({
  start: z.literal(true),
  message: z.string().trim().min(1).max(500).optional(),
});
export const maintenanceStopSchema = z.object({ stop: z.literal(true) });

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
