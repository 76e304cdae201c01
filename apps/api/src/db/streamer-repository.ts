// Streamer rows and their platform accounts: every read and write of a streamer's row through Prisma is
// here (a rule in test:cycles keeps it so: scripts/check-layers.mjs). Writes that must happen in a caller's
// transaction take it as `db`. The statements that move an amount between a claim or a session and the
// pending reward in one statement (exactly once) stay with the claim and the session
// (docs/architecture.md#the-apis-structure).
import type { StreamPlatform } from '@strm/shared';
import type { Prisma } from '../generated/prisma/client.ts';
import type { PrismaClient } from './index.ts';

/** The client or the transaction a write runs in. */
export type Db = PrismaClient | Prisma.TransactionClient;

export class StreamerRepository {
  constructor(private readonly prisma: PrismaClient) {}

  /** The wallet's streamer row (null before its first session or registration). */
  streamer(wallet: string, db: Db = this.prisma) {
    return db.streamer.findUnique({ where: { wallet } });
  }

  /** The wallet's pending reward in base units (0 before its first credit). */
  async pendingRewardUnits(wallet: string): Promise<bigint> {
    return (await this.streamer(wallet))?.pendingRewardUnits ?? 0n;
  }

  /** Creates the wallet's streamer row with its defaults when it has none. */
  async ensureStreamer(wallet: string, db: Db = this.prisma): Promise<void> {
    await db.streamer.upsert({ where: { wallet }, create: { wallet }, update: {} });
  }

  /** The mirror of the chain's tier record (GET /streamer, increase-rate read it), the row made if need be. */
  async mirrorTierActivation(wallet: string, tierName: string, activatedAt: Date): Promise<void> {
    await this.prisma.streamer.upsert({
      where: { wallet },
      create: { wallet, tierName, tierActivatedAt: activatedAt },
      update: { tierName, tierActivatedAt: activatedAt },
    });
  }

  /** The mirror of a record the chain no longer has: no tier. */
  async mirrorTierDeactivation(wallet: string): Promise<void> {
    await this.prisma.streamer.update({ where: { wallet }, data: { tierName: null, tierActivatedAt: null } });
  }

  /** The first time zone (the browser's at the first sign-in): set, not counted as a change. */
  setFirstTimezone(db: Db, wallet: string, timezone: string, at: Date) {
    return db.streamer.update({ where: { wallet }, data: { timezone, timezoneSetAt: at } });
  }

  /** A change of time zone, counted. */
  changeTimezone(db: Db, wallet: string, timezone: string) {
    return db.streamer.update({
      where: { wallet },
      data: { timezone, timezoneChangedTimes: { increment: 1 } },
    });
  }

  /** An admin's adjustment: the pending reward set to `units`. */
  async setPendingReward(db: Db, wallet: string, units: bigint): Promise<void> {
    await db.streamer.update({ where: { wallet }, data: { pendingRewardUnits: units } });
  }

  /** An approved raise: the pending reward increased by `units`. */
  async raisePendingReward(db: Db, wallet: string, units: bigint): Promise<void> {
    await db.streamer.update({ where: { wallet }, data: { pendingRewardUnits: { increment: units } } });
  }

  /** The wallet's account on the platform (verified or not). */
  account(wallet: string, platform: StreamPlatform) {
    return this.prisma.platformAccount.findUnique({ where: { wallet_platform: { wallet, platform } } });
  }

  /** The wallet's account on the platform with what a start needs of its streamer row, in one query. */
  accountWithStreamer(wallet: string, platform: StreamPlatform) {
    return this.prisma.platformAccount.findUnique({
      where: { wallet_platform: { wallet, platform } },
      include: { streamer: { select: { timezone: true, tierName: true, tierActivatedAt: true } } },
    });
  }

  /**
   * Every platform account of these wallets (one query), with what a live session's check needs of it: the
   * engine reads thousands each checkpoint batch and holds them while the chain is read beside it, long
   * enough for V8 to promote them; whole rows brought three Dates each (docs/benchmarks.md#mining-engine).
   */
  accountsOf(wallets: readonly string[]) {
    return this.prisma.platformAccount.findMany({
      where: { wallet: { in: [...wallets] } },
      select: { wallet: true, platform: true, isVerified: true, username: true, externalId: true },
    });
  }

  /** A verified account on the platform with this username (any case) of another wallet. */
  verifiedElsewhere(platform: StreamPlatform, username: string, wallet: string) {
    return this.prisma.platformAccount.findFirst({
      where: {
        platform,
        isVerified: true,
        username: { equals: username, mode: 'insensitive' },
        NOT: { wallet },
      },
    });
  }

  /** The wallet's account on the platform, verified now under this username. */
  saveVerified(wallet: string, platform: StreamPlatform, username: string, at: Date) {
    return this.prisma.platformAccount.upsert({
      where: { wallet_platform: { wallet, platform } },
      create: { wallet, platform, username, isVerified: true, verifiedAt: at },
      update: { username, isVerified: true, verifiedAt: at },
    });
  }
}
