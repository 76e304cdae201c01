// Persistence of mining sessions: one place for their SQL. Amounts are base units (bigint).
import type { StreamPlatform } from '@strm/shared';
import type { PrismaClient } from '../../db/index.ts';
import { Prisma } from '../../generated/prisma/client.ts';
import { type Interval, localDay, usedInDay } from './daily.ts';

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

/** Alive: a member whose lease has not run out (api_instances, see cluster/membership.ts). */
const OWNER_DEAD = Prisma.sql`(m.owner_instance IS NULL OR NOT EXISTS (
  SELECT 1 FROM api_instances i WHERE i.id = m.owner_instance AND i.lease_until > (now() AT TIME ZONE 'UTC')))`;

export type SessionRow = Awaited<ReturnType<SessionStore['openSessions']>>[number];

/**
 * Every write of a live session is conditional on `owner` (this instance) still owning it: an instance
 * that lost a session (its lease ran out and another took it over) can neither checkpoint nor close it.
 */
export class SessionStore {
  constructor(
    private readonly prisma: PrismaClient,
    private readonly owner: string,
  ) {}

  /** Inserts the open session; the partial unique index refuses a second open one for the wallet. */
  async open(session: NewSession): Promise<number> {
    try {
      const row = await this.prisma.miningSession.create({
        data: { ...session, accruedUntil: session.startedAt, ownerInstance: this.owner },
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
  async close(
    id: number,
    endedAt: Date,
    minedUnits: bigint,
    reason: string,
    owner: string | null = this.owner,
  ): Promise<bigint | null> {
    const rows = await this.prisma.$queryRaw<{ pending: bigint }[]>`
      WITH closed AS (
        UPDATE mining_sessions
           SET ended_at = ${endedAt}, accrued_until = ${endedAt}, mined_units = ${minedUnits}, end_reason = ${reason}
         WHERE id = ${id} AND ended_at IS NULL AND owner_instance IS NOT DISTINCT FROM ${owner}
        RETURNING wallet, mined_units)
      UPDATE streamers s
         SET pending_reward_units = s.pending_reward_units + closed.mined_units, updated_at = now()
        FROM closed WHERE s.wallet = closed.wallet
      RETURNING s.pending_reward_units AS pending`;
    return rows[0]?.pending ?? null;
  }

  /**
   * One statement for every due checkpoint (at most one write per session per interval). Answers the ids
   * it could not write because this instance no longer owns them (or they were closed).
   */
  async checkpoint(batch: readonly Checkpoint[]): Promise<number[]> {
    if (!batch.length) return [];
    const ids = batch.map((c) => c.id);
    const times = batch.map((c) => c.accruedUntil.toISOString());
    const mined = batch.map((c) => c.minedUnits.toString());
    const written = await this.prisma.$queryRaw<{ id: number }[]>`
      UPDATE mining_sessions m
         SET accrued_until = v.t AT TIME ZONE 'UTC', mined_units = v.m
        FROM (SELECT unnest(${ids}::int[]) AS id, unnest(${times}::timestamptz[]) AS t,
                     unnest(${mined}::bigint[]) AS m) v
       WHERE m.id = v.id AND m.ended_at IS NULL AND m.owner_instance = ${this.owner}
      RETURNING m.id`;
    const ok = new Set(written.map((r) => r.id));
    return ids.filter((id) => !ok.has(id));
  }

  /** Every open session (all instances). */
  openSessions() {
    return this.prisma.miningSession.findMany({ where: { endedAt: null } });
  }

  /** The wallet's open session (any instance): its owner, and whether that owner is alive. */
  async openSessionOf(
    wallet: string,
  ): Promise<{ id: number; ownerInstance: string | null; ownerAlive: boolean } | null> {
    const rows = await this.prisma.$queryRaw<
      { id: number; ownerInstance: string | null; ownerAlive: boolean }[]
    >`
      SELECT m.id, m.owner_instance AS "ownerInstance", NOT ${OWNER_DEAD} AS "ownerAlive"
        FROM mining_sessions m
       WHERE m.wallet = ${wallet} AND m.ended_at IS NULL`;
    return rows[0] ?? null;
  }

  /** The wallet's latest session (open or closed). */
  lastSession(wallet: string) {
    return this.prisma.miningSession.findFirst({ where: { wallet }, orderBy: { startedAt: 'desc' } });
  }

  /** Whether the wallet has an open session on any instance. */
  async hasOpen(wallet: string): Promise<boolean> {
    return (await this.prisma.miningSession.count({ where: { wallet, endedAt: null } })) > 0;
  }

  /**
   * Takes over the open sessions of these wallets (their sockets are connected here) whose owner is dead
   * or released them. The row lock makes it one instance's: a concurrent taker re-reads the new owner.
   */
  async adopt(wallets: readonly string[]): Promise<SessionRow[]> {
    if (!wallets.length) return [];
    const rows = await this.prisma.$queryRaw<{ id: number }[]>`
      UPDATE mining_sessions m SET owner_instance = ${this.owner}
       WHERE m.ended_at IS NULL AND m.wallet = ANY(${[...wallets]}::text[]) AND ${OWNER_DEAD}
         AND m.owner_instance IS DISTINCT FROM ${this.owner}
      RETURNING m.id`;
    if (!rows.length) return [];
    return this.prisma.miningSession.findMany({ where: { id: { in: rows.map((r) => r.id) } } });
  }

  /** Stops owning every open session (graceful shutdown): whichever instance holds the wallet takes it. */
  async releaseAll(): Promise<number> {
    return this.prisma.$executeRaw`
      UPDATE mining_sessions SET owner_instance = NULL WHERE owner_instance = ${this.owner} AND ended_at IS NULL`;
  }

  /** Releases one session (its wallet is connected to another instance). */
  async release(id: number): Promise<boolean> {
    const n = await this.prisma.$executeRaw`
      UPDATE mining_sessions SET owner_instance = NULL
       WHERE id = ${id} AND owner_instance = ${this.owner} AND ended_at IS NULL`;
    return n > 0;
  }

  /**
   * Open sessions nobody runs: the owner is dead or released them, and for `graceMs` since it could last
   * have run them (its last checkpoint, or the end of its lease when it died later) no instance holding the
   * wallet took them over. The caller closes them at their checkpoint. Never this instance's own: those it
   * runs, or closes itself once the database takes the write (its lease may have lapsed during a database
   * outage while its sessions went on in memory).
   */
  orphans(graceMs: number) {
    return this.prisma.$queryRaw<
      {
        id: number;
        ownerInstance: string | null;
        startedAt: Date;
        accruedUntil: Date;
        rateUnitsPerHour: bigint;
        wallet: string;
      }[]
    >`
      SELECT m.id, m.owner_instance AS "ownerInstance", m.started_at AS "startedAt",
             m.accrued_until AS "accruedUntil", m.rate_units_per_hour AS "rateUnitsPerHour", m.wallet
        FROM mining_sessions m
        LEFT JOIN api_instances owner ON owner.id = m.owner_instance
       WHERE m.ended_at IS NULL AND ${OWNER_DEAD} AND m.owner_instance IS DISTINCT FROM ${this.owner}
         AND GREATEST(m.accrued_until, owner.lease_until)
             < (now() AT TIME ZONE 'UTC') - make_interval(secs => ${graceMs} / 1000.0)`;
  }

  /** Live milliseconds of closed sessions inside the local day (in `timezone`) that contains `atMs`. */
  async usedToday(wallet: string, atMs: number, timezone: string): Promise<number> {
    const day = localDay(atMs, timezone);
    return usedInDay(await this.intervals(wallet, day.startMs, day.endMs), day);
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
