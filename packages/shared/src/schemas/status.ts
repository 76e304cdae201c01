import { z } from 'zod';

// What the server says about itself: maintenance and this deployment's settings for the web app (its health:
// health.ts, apart, so that the web app's landing page, which loads this module, does not build those schemas).

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
  /** YouTube and Kick: whether this deployment has their credentials (off otherwise, and said so). */
  oauthPlatforms: z.object({ youtube: z.boolean(), kick: z.boolean() }).optional(),
  links: z.object({
    dexChart: z.string().nullable(),
    tokenExplorer: z.string().nullable(),
    /** An explorer page for an address, with `{address}` where the address goes. */
    addressExplorer: z.string().nullable(),
  }),
});
export type ClientConfig = z.infer<typeof clientConfigSchema>;
