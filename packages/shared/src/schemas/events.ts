import { z } from 'zod';
import { isoTime, signatureSchema, streamPlatformSchema, walletSchema } from './common.ts';

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
const serverEvents = {
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
    /** null: the platform did not say (YouTube hides concurrentViewers when the owner hides it). */
    viewers: z.number().int().nonnegative().nullable(),
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
  'youtube:not-live': z.object({ message: z.string() }),
  'kick:not-live': z.object({ message: z.string() }),
} as const;
export type ServerEventName = keyof typeof serverEvents;
export type ServerEventPayload<E extends ServerEventName> = z.infer<(typeof serverEvents)[E]>;

/**
 * The requests answered by an acknowledgement, and the event whose payload the answer carries. The event is
 * still emitted too (docs/product.md#activating-and-deactivating-a-tier): the ack tells the requesting
 * client, the event every listener.
 */
const acknowledgedEvents = {
  'activate-tier': 'tier-activated',
  'deactivate-tier': 'tier-deactivated',
  'collect-rewards': 'rewards-collected',
} as const satisfies Partial<Record<ClientEventName, ServerEventName>>;
export type AcknowledgedEventName = keyof typeof acknowledgedEvents;
export type AckPayload<E extends AcknowledgedEventName> = ServerEventPayload<(typeof acknowledgedEvents)[E]>;

/** An acknowledgement: the answer's data, or the message of the refusal (as socket.io's CRUD example). */
export type Ack<T> = { data: T } | { error: string };

/** Socket.IO's typed events (`Server<ClientToServerEvents, ServerToClientEvents>`), from the schemas above. */
export type ClientToServerEvents = {
  [E in ClientEventName]: E extends AcknowledgedEventName
    ? (payload: ClientEventPayload<E>, ack: (answer: Ack<AckPayload<E>>) => void) => void
    : (payload: ClientEventPayload<E>) => void;
};
export type ServerToClientEvents = {
  [E in ServerEventName]: (payload: ServerEventPayload<E>) => void;
};

/** The live socket state the dashboard renders. */
const liveStateSchema = z.object({
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
