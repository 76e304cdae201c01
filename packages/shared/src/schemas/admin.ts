import { z } from 'zod';
import { REGISTRATION_PLATFORMS } from '../constants.ts';
import { isoTime, walletSchema } from './common.ts';
import { registrationSchema } from './registration.ts';

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

const adminRegistrationSchema = registrationSchema.extend({ hasAccess: z.boolean() });
export type AdminRegistration = z.infer<typeof adminRegistrationSchema>;

export const registrationListResponseSchema = z.object({
  items: z.array(adminRegistrationSchema),
  total: z.number().int().nonnegative(),
  page: z.number().int().positive(),
  pageSize: z.number().int().positive(),
});
export type RegistrationListResponse = z.infer<typeof registrationListResponseSchema>;

/** The `{wallet}` of /admin/beta-access/{wallet} and /admin/admins/{wallet}. */
export const walletParamsSchema = z.object({ wallet: walletSchema });

/** PUT/DELETE /admin/beta-access/{wallet}: the wallet's access after the change. */
export const betaAccessChangeSchema = z.object({ wallet: walletSchema, hasAccess: z.boolean() });

const adminEntrySchema = z.object({
  wallet: walletSchema,
  /** 'config': listed in ADMIN_WALLETS (cannot be demoted through the API); 'promoted': by an admin. */
  source: z.enum(['config', 'promoted']),
  promoted_by: z.string().nullable(),
  created_at: isoTime.nullable(),
});
export const adminListSchema = z.array(adminEntrySchema);
/** PUT/DELETE /admin/admins/{wallet}: whether the wallet is an admin after the change. */
export const adminChangeSchema = z.object({ wallet: walletSchema, isAdmin: z.boolean() });

const ADMIN_ACTIONS = [
  'grant_access',
  'revoke_access',
  'promote_admin',
  'demote_admin',
  'maintenance_on',
  'maintenance_off',
  'pending_reward_adjusted',
  'pending_reward_adjustment_requested',
  'pending_reward_adjustment_approved',
  'pending_reward_adjustment_rejected',
  'pending_reward_adjustment_expired',
] as const;
export const auditQuerySchema = z.object({ limit: z.coerce.number().int().min(1).max(500).default(100) });
/** Who did what and when; newest first. The actor is a wallet or `cli:<user>` for the operators' CLI. */
const auditEntrySchema = z.object({
  id: z.number().int(),
  actor: z.string(),
  action: z.enum(ADMIN_ACTIONS),
  target: z.string().nullable(),
  detail: z.string().nullable(),
  created_at: isoTime,
});
export const auditListSchema = z.array(auditEntrySchema);
