// Persistence of mining sessions: one place for their SQL. Amounts are base units (bigint).
import type { StreamPlatform } from '@strm/shared';
import type { PrismaClient } from '../../db/index.ts';
import { Prisma } from '../../generated/prisma/client.ts';
import type { Interval } from './daily.ts';

export class OpenSessionExists extends Error {}

export interface NewSession {
  wallet: string;
  platform: StreamPlatform;
  tierName: string;
  rateUnitsPerHour: bigint;
  startedAt: Date;
}

export interface Checkpoint {
  id: number;
  accruedUntil: Date;
  minedUnits: bigint;
}

export class SessionStore {
  constructor(private readonly prisma: PrismaClient) {}

  /** Inserts the open session; the partial unique index refuses a second open one for the wallet. */
  async open(session: NewSession): Promise<number> {
    try {
      const row = await this.prisma.miningSession.create({
        data: { ...session, accruedUntil: session.startedAt },
        select: { id: true },
      });
      return row.id;
    } catch (err) {
      if (err instanceof Prisma.PrismaClientKnownRequestError && err.code === 'P2002') {
        throw new OpenSessionExists();
      }
      throw err;
    }
  }

  /**
   * Closes an open session and credits what it mined to the streamer's pending reward, in one statement
   * (so exactly once). Returns the new pending reward, or null when the session was already closed.
   */
  async close(id: number, endedAt: Date, minedUnits: bigint, reason: string): Promise<bigint | null> {
    const rows = await this.prisma.$queryRaw<{ pending: bigint }[]>`
      WITH closed AS (
        UPDATE mining_sessions
           SET ended_at = ${endedAt}, accrued_until = ${endedAt}, mined_units = ${minedUnits}, end_reason = ${reason}
         WHERE id = ${id} AND ended_at IS NULL
        RETURNING wallet, mined_units)
      UPDATE streamers s
         SET pending_reward_units = s.pending_reward_units + closed.mined_units, updated_at = now()
        FROM closed WHERE s.wallet = closed.wallet
      RETURNING s.pending_reward_units AS pending`;
    return rows[0]?.pending ?? null;
  }

  /** One statement for every due checkpoint (at most one write per session per interval). */
  async checkpoint(batch: readonly Checkpoint[]): Promise<void> {
    if (!batch.length) return;
    const ids = batch.map((c) => c.id);
    const times = batch.map((c) => c.accruedUntil.toISOString());
    const mined = batch.map((c) => c.minedUnits.toString());
    await this.prisma.$executeRaw`
      UPDATE mining_sessions m
         SET accrued_until = v.t AT TIME ZONE 'UTC', mined_units = v.m
        FROM (SELECT unnest(${ids}::int[]) AS id, unnest(${times}::timestamptz[]) AS t,
                     unnest(${mined}::bigint[]) AS m) v
       WHERE m.id = v.id AND m.ended_at IS NULL`;
  }

  /** Sessions still open (after a crash): closed by the caller at their last checkpoint. */
  openSessions() {
    return this.prisma.miningSession.findMany({ where: { endedAt: null } });
  }

  /** Closed live intervals that overlap [fromMs, toMs). */
  async intervals(wallet: string, fromMs: number, toMs: number): Promise<Interval[]> {
    const rows = await this.prisma.miningSession.findMany({
      where: { wallet, startedAt: { lt: new Date(toMs) }, endedAt: { gt: new Date(fromMs) } },
      select: { startedAt: true, endedAt: true },
    });
    return rows.map((r) => ({ startMs: r.startedAt.getTime(), endMs: (r.endedAt ?? r.startedAt).getTime() }));
  }
}
