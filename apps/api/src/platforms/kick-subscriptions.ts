// Kick's livestream.status.updated subscriptions as state every instance shares
// (docs/platforms-youtube-kick.md#kick-subscriptions): one row per broadcaster (Kick's subscription id, the
// event, its version) in the database, read and changed by one instance at a time (a transaction-level
// advisory lock per broadcaster), so two instances starting sessions for one channel make one subscription.
// Kick is listed before one is made (a repeated POST makes a duplicate), its per-event `error` is a refusal,
// a subscription no session needs on any instance is deleted, and one instance at a time (a second advisory
// lock) lists Kick's subscriptions periodically: one Kick dropped (a day of failed deliveries) is made again,
// duplicates and leftovers are deleted.
import { z } from 'zod';
import type { PrismaClient } from '../db/index.ts';
import type { Logger } from '../logger.ts';
import { expectJson, malformed, platformFetch } from './fetch.ts';

export const KICK_STATUS_EVENT = 'livestream.status.updated';
export const KICK_STATUS_EVENT_VERSION = 1;
const LABEL = 'Kick';

export interface KickSubscriptionRow {
  broadcasterId: string;
  subscriptionId: string;
  event: string;
  version: number;
}

/** Where the subscriptions are kept, and who may change one (all instances of a deployment). */
export interface KickSubscriptionStore {
  /** Runs `fn` as the only holder of the broadcaster's row (across instances); `save(null)` removes it. */
  exclusive<T>(
    broadcasterId: string,
    fn: (
      row: KickSubscriptionRow | null,
      save: (row: KickSubscriptionRow | null) => Promise<void>,
    ) => Promise<T>,
  ): Promise<T>;
  /** Every broadcaster with a row. */
  broadcasters(): Promise<string[]>;
  /** Whether a session on another instance runs on the broadcaster's channel (its subscription is needed). */
  neededElsewhere(broadcasterId: string): Promise<boolean>;
  /** Runs `fn` when no other instance runs the periodic check now; false when one does. */
  asChecker(fn: () => Promise<void>): Promise<boolean>;
}

/** One process's store (no database: tests of the adapter alone). */
export function memoryKickSubscriptions(): KickSubscriptionStore {
  const rows = new Map<string, KickSubscriptionRow>();
  const locks = new Map<string, Promise<unknown>>();
  let checking = false;
  return {
    async exclusive(id, fn) {
      const before = locks.get(id) ?? Promise.resolve();
      const run = before
        .catch(() => {})
        .then(() =>
          fn(rows.get(id) ?? null, async (row) => {
            if (row) rows.set(id, row);
            else rows.delete(id);
          }),
        );
      locks.set(id, run);
      try {
        return await run;
      } finally {
        if (locks.get(id) === run) locks.delete(id);
      }
    },
    async broadcasters() {
      return [...rows.keys()];
    },
    async neededElsewhere() {
      return false;
    },
    async asChecker(fn) {
      if (checking) return false;
      checking = true;
      try {
        await fn();
        return true;
      } finally {
        checking = false;
      }
    },
  };
}

/** How long one broadcaster's row may be held (Kick's requests are bounded by the HTTP deadline). */
const HOLD_MS = 60_000;

/** Rows held at once by one instance: each holds a pooled connection while Kick answers. */
const HELD_AT_ONCE = 2;

/** At most `limit` of the functions run at once; the others wait their turn. */
function limited(limit: number) {
  let running = 0;
  const waiting: Array<() => void> = [];
  return async <T>(fn: () => Promise<T>): Promise<T> => {
    if (running >= limit) await new Promise<void>((resolve) => waiting.push(resolve));
    running++;
    try {
      return await fn();
    } finally {
      running--;
      waiting.shift()?.();
    }
  };
}

/**
 * The database's store: kick_subscriptions, pg advisory locks, open sessions owned by other instances. A
 * row is held in a transaction while Kick answers, so at most HELD_AT_ONCE are held at once here (the
 * engine's queries keep the rest of the connection pool).
 */
export function prismaKickSubscriptions(prisma: PrismaClient, instanceId: string): KickSubscriptionStore {
  const turn = limited(HELD_AT_ONCE);
  return {
    exclusive(id, fn) {
      return turn(() =>
        prisma.$transaction(
          async (tx) => {
            await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext('strm:kick-subscription:' || ${id}))`;
            const found = await tx.kickSubscription.findUnique({ where: { broadcasterId: id } });
            return fn(found, async (row) => {
              if (row) {
                const data = { subscriptionId: row.subscriptionId, event: row.event, version: row.version };
                await tx.kickSubscription.upsert({
                  where: { broadcasterId: id },
                  create: { broadcasterId: id, ...data },
                  update: data,
                });
              } else {
                await tx.kickSubscription.deleteMany({ where: { broadcasterId: id } });
              }
            });
          },
          { timeout: HOLD_MS, maxWait: HOLD_MS },
        ),
      );
    },
    async broadcasters() {
      const rows = await prisma.kickSubscription.findMany({ select: { broadcasterId: true } });
      return rows.map((r) => r.broadcasterId);
    },
    async neededElsewhere(id) {
      const open = await prisma.$queryRaw<Array<{ n: bigint }>>`
        SELECT count(*) AS n FROM mining_sessions s
        JOIN platform_accounts a ON a.wallet = s.wallet AND a.platform = s.platform
        WHERE s.platform = 'kick' AND s.ended_at IS NULL AND a.external_id = ${id}
          AND s.owner_instance IS DISTINCT FROM ${instanceId}`;
      return Number(open[0]?.n ?? 0) > 0;
    },
    async asChecker(fn) {
      return prisma.$transaction(
        async (tx) => {
          const [lock] = await tx.$queryRaw<Array<{ locked: boolean }>>`
            SELECT pg_try_advisory_xact_lock(hashtext('strm:kick-subscriptions-check')) AS locked`;
          if (!lock?.locked) return false;
          await fn();
          return true;
        },
        { timeout: 5 * HOLD_MS, maxWait: HOLD_MS },
      );
    },
  };
}

const subscriptionsSchema = z.object({
  data: z.array(z.object({ id: z.string(), broadcaster_user_id: z.coerce.string(), event: z.string() })),
});
const subscribedSchema = z.object({
  data: z.array(
    z.object({ name: z.string(), subscription_id: z.string().optional(), error: z.string().optional() }),
  ),
});

/** Kick's /public/v1/events/subscriptions with the app token. */
export interface KickEventsApi {
  apiBaseUrl: string;
  httpTimeoutMs: number;
  logger: Logger;
  appToken(): Promise<string>;
  /** A GET with the app token (a 401 gets one new token). */
  get(url: string): Promise<unknown>;
}

/** GET: livestream.status.updated subscription ids by broadcaster (of one, or all the app's). */
export async function listKickSubscriptions(
  api: KickEventsApi,
  broadcasterId?: string,
): Promise<Map<string, string[]>> {
  const url = new URL(`${api.apiBaseUrl}/public/v1/events/subscriptions`);
  if (broadcasterId) url.searchParams.set('broadcaster_user_id', broadcasterId);
  const parsed = subscriptionsSchema.safeParse(await api.get(url.toString()));
  if (!parsed.success) throw malformed(LABEL, api.logger, url.toString(), parsed.error.issues[0]);
  const result = new Map<string, string[]>();
  for (const sub of parsed.data.data) {
    if (sub.event !== KICK_STATUS_EVENT) continue;
    result.set(sub.broadcaster_user_id, [...(result.get(sub.broadcaster_user_id) ?? []), sub.id]);
  }
  return result;
}

/** POST: the subscription's id, or null when Kick refused (its status, or an `error` on the event). */
export async function createKickSubscription(
  api: KickEventsApi,
  broadcasterId: string,
): Promise<string | null> {
  const url = `${api.apiBaseUrl}/public/v1/events/subscriptions`;
  const res = await platformFetch(
    LABEL,
    url,
    {
      method: 'POST',
      headers: { Authorization: `Bearer ${await api.appToken()}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({
        broadcaster_user_id: Number(broadcasterId),
        events: [{ name: KICK_STATUS_EVENT, version: KICK_STATUS_EVENT_VERSION }],
        method: 'webhook',
      }),
      timeoutMs: api.httpTimeoutMs,
    },
    api.logger,
  );
  if (res.status !== 200 && res.status !== 201) {
    api.logger.warn({ status: res.status, body: res.text.slice(0, 200) }, 'Kick event subscription refused');
    return null;
  }
  const parsed = subscribedSchema.safeParse(expectJson(LABEL, res, api.logger, url));
  if (!parsed.success) throw malformed(LABEL, api.logger, url, parsed.error.issues[0]);
  const made = parsed.data.data.find((e) => e.name === KICK_STATUS_EVENT);
  if (!made?.subscription_id || made.error) {
    api.logger.warn(
      { broadcasterId, error: made?.error ?? 'no subscription id' },
      'Kick refused the event subscription; polling continues',
    );
    return null;
  }
  return made.subscription_id;
}

/** DELETE ?id=…. */
export async function deleteKickSubscriptions(api: KickEventsApi, ids: string[]): Promise<void> {
  if (!ids.length) return;
  const url = new URL(`${api.apiBaseUrl}/public/v1/events/subscriptions`);
  for (const id of ids) url.searchParams.append('id', id);
  const res = await platformFetch(
    LABEL,
    url.toString(),
    {
      method: 'DELETE',
      headers: { Authorization: `Bearer ${await api.appToken()}` },
      timeoutMs: api.httpTimeoutMs,
    },
    api.logger,
  );
  if (res.status !== 204 && res.status !== 200) {
    api.logger.warn(
      { status: res.status, body: res.text.slice(0, 200) },
      'Kick kept subscriptions asked deleted',
    );
  }
}
