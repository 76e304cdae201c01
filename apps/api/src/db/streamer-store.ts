// Persistence of streamers and their platform accounts: the reads and writes the engine, the socket
// handlers and the streamer routes make, in one place.
import type { StreamPlatform } from '@strm/shared';
import type { PrismaClient } from './index.ts';

export class StreamerStore {
  constructor(private readonly prisma: PrismaClient) {}

  /** The wallet's streamer row (null before its first session or registration). */
  streamer(wallet: string) {
    return this.prisma.streamer.findUnique({ where: { wallet } });
  }

  /** The wallet's pending reward in base units (0 before its first credit). */
  async pendingRewardUnits(wallet: string): Promise<bigint> {
    return (await this.streamer(wallet))?.pendingRewardUnits ?? 0n;
  }

  /** Creates the wallet's streamer row with its defaults when it has none. */
  async ensureStreamer(wallet: string): Promise<void> {
    await this.prisma.streamer.upsert({ where: { wallet }, create: { wallet }, update: {} });
  }

  /** The mirror of the chain's tier record (GET /streamer, increase-rate read it). */
  async mirrorTierActivation(wallet: string, tierName: string, activatedAt: Date): Promise<void> {
    await this.prisma.streamer.update({
      where: { wallet },
      data: { tierName, tierActivatedAt: activatedAt },
    });
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
