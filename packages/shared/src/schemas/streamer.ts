import { z } from 'zod';
import { isoTime, streamPlatformSchema, walletSchema } from './common.ts';

/** Any IANA time zone the runtime knows. */
const timezoneSchema = z
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

const streamerSchema = z.object({
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

/**
 * POST /streamer/pending-reward's answer: the reward before and after, and the adjustment's record id. A
 * raise above the approval threshold is `pending_approval` (202): the reward is unchanged until a second
 * admin approves it.
 */
export const pendingRewardResponseSchema = z.object({
  success: z.boolean(),
  wallet: walletSchema,
  previousPendingReward: z.number().nonnegative(),
  pendingReward: z.number().nonnegative(),
  adjustmentId: z.number().int(),
  status: z.enum(['applied', 'pending_approval']),
});

/** An adjustment as the admin console lists it (GET /admin/pending-reward-adjustments). */
export const adjustmentSchema = z.object({
  id: z.number().int(),
  wallet: walletSchema,
  admin: z.string(),
  previousPendingReward: z.number().nonnegative(),
  requestedPendingReward: z.number().nonnegative(),
  reason: z.string().nullable(),
  status: z.enum(['applied', 'pending_approval', 'rejected', 'expired']),
  decidedBy: z.string().nullable(),
  createdAt: z.string(),
  decidedAt: z.string().nullable(),
});
export type Adjustment = z.infer<typeof adjustmentSchema>;
export const adjustmentListSchema = z.object({ adjustments: z.array(adjustmentSchema) });
/** A database id (PostgreSQL's integer): larger ones name nothing and are refused as invalid. */
export const adjustmentIdParamsSchema = z.object({
  id: z.coerce.number().int().positive().max(2_147_483_647),
});
export const adjustmentListQuerySchema = z.object({
  status: z.enum(['applied', 'pending_approval', 'rejected', 'expired']).optional(),
});
