// YouTube's Data API quota as the Cloud project's budget (docs/platforms-youtube-kick.md#youtube-live): the
// units every instance spends are counted together in Redis (else each instance keeps to its share,
// YOUTUBE_INSTANCES), each wallet's lookups are bounded by its own daily budget counted the same way (so a
// wallet cannot get a budget per instance by reaching several), and once the day is spent (Google's
// quotaExceeded, or the instances' count) nothing is asked until the quota resets at midnight Pacific time.
import type { Redis } from 'ioredis';
import { SERVER_MESSAGES } from '@strm/shared';
import type { Logger } from '../logger.ts';
import { PlatformError } from './fetch.ts';

const DAY_MS = 86_400_000;

/** Google answered quotaExceeded: the platform cannot be asked (not: the stream is offline). */
export class YouTubeQuotaExhausted extends PlatformError {
  constructor(message: string = SERVER_MESSAGES.youtubeQuotaExhausted) {
    super('rate-limited', message);
  }
}

/** One wallet spent its own daily share of lookups (the project's quota is left for the others). */
export class YouTubeWalletBudgetSpent extends YouTubeQuotaExhausted {
  constructor() {
    super(SERVER_MESSAGES.youtubeWalletBudgetSpent);
  }
}

/** The Data API's quota resets at midnight Pacific time: the day a unit is counted in. */
export function pacificDay(ms: number): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Los_Angeles' }).format(new Date(ms));
}

/** The first instant of the next Pacific day (07:00 or 08:00 UTC, as daylight saving time says). */
export function nextPacificMidnight(ms: number): number {
  const [y, m, d] = pacificDay(ms).split('-').map(Number) as [number, number, number];
  for (const hourUtc of [7, 8]) {
    const t = Date.UTC(y, m - 1, d + 1, hourUtc);
    if (pacificDay(t) !== pacificDay(t - 1)) return t;
  }
  return ms + DAY_MS;
}

export interface YouTubeQuotaOptions {
  /** The project's daily quota in units. */
  dailyQuota: number;
  /** Without Redis, the instances sharing the project: each keeps to dailyQuota / instances. */
  instances?: number;
  /** Units the lookups one wallet causes may spend in a Pacific day (default 40). */
  walletDailyUnits?: number;
  /** After the day is spent, how long before asking again (default: until midnight Pacific). */
  quotaRetryMs?: number;
}

export class YouTubeQuota {
  /** Where every instance counts its units (Redis), when shared. */
  private ledger: { redis: Redis; prefix: string } | null = null;
  /** The units this instance spent in the Pacific day `day`. */
  private spentHere = { day: '', units: 0 };
  /** Units each wallet's lookups spent here in the Pacific day `walletDay` (without Redis, or while it is away). */
  private readonly walletUnits = new Map<string, number>();
  private walletDay = '';
  private exhaustedUntilMs = 0;

  constructor(
    private readonly options: YouTubeQuotaOptions,
    private readonly logger: Logger,
  ) {}

  /** Counts the project's units and the wallets' budgets in Redis from now on (one `prefix` per deployment). */
  share(redis: Redis, prefix: string): void {
    this.ledger = { redis, prefix };
  }

  /** Whether the day is spent and nothing is asked until it resets. */
  get exhausted(): boolean {
    return Date.now() < this.exhaustedUntilMs;
  }

  /** The day is spent: nothing is asked until midnight Pacific (or quotaRetryMs, when set). */
  markExhausted(): void {
    const now = Date.now();
    this.exhaustedUntilMs =
      this.options.quotaRetryMs !== undefined ? now + this.options.quotaRetryMs : nextPacificMidnight(now);
  }

  /** When the platform is asked again (0: not exhausted). */
  get exhaustedUntil(): number {
    return this.exhausted ? this.exhaustedUntilMs : 0;
  }

  /** Counts one unit; false when the project's day is spent (all instances with Redis, else this one's share). */
  async spendUnit(): Promise<boolean> {
    const day = pacificDay(Date.now());
    if (this.spentHere.day !== day) this.spentHere = { day, units: 0 };
    this.spentHere.units++;
    const total = await this.add(day, 1);
    if (total !== null) return total <= this.options.dailyQuota;
    return this.spentHere.units <= this.options.dailyQuota / Math.max(1, this.options.instances ?? 1);
  }

  private get walletBudget(): number {
    return this.options.walletDailyUnits ?? 40;
  }

  /** Whether the wallet's lookups may spend `units` more today. */
  async walletCan(wallet: string, units: number): Promise<boolean> {
    const day = pacificDay(Date.now());
    let spent: number | null = null;
    if (this.ledger) {
      try {
        spent = Number((await this.ledger.redis.get(this.walletKey(day, wallet))) ?? 0);
      } catch (err) {
        this.redisAway(err);
      }
    }
    return (spent ?? this.walletHere(day, wallet)) + units <= this.walletBudget;
  }

  /** Counts `units` against the wallet's day; with `check`, refuses (counting nothing) past its budget. */
  async chargeWallet(wallet: string, units: number, check: boolean): Promise<void> {
    const day = pacificDay(Date.now());
    const here = this.walletHere(day, wallet) + units;
    let total: number | null = null;
    if (this.ledger) {
      const key = this.walletKey(day, wallet);
      try {
        const answers = await this.ledger.redis
          .multi()
          .incrby(key, units)
          .pexpire(key, 2 * DAY_MS)
          .exec();
        total = Number(answers?.[0]?.[1]);
        if (check && total > this.walletBudget) await this.ledger.redis.decrby(key, units);
      } catch (err) {
        this.redisAway(err);
        total = null;
      }
    }
    const over = (total ?? here) > this.walletBudget;
    if (over && check) {
      this.logger.warn({ wallet }, 'A wallet spent its daily share of YouTube lookups; refused');
      throw new YouTubeWalletBudgetSpent();
    }
    this.walletUnits.set(wallet, here);
  }

  private walletHere(day: string, wallet: string): number {
    if (day !== this.walletDay) {
      this.walletDay = day;
      this.walletUnits.clear();
    }
    return this.walletUnits.get(wallet) ?? 0;
  }

  private walletKey(day: string, wallet: string): string {
    return `${this.ledger?.prefix}wallet:${day}:${wallet}`;
  }

  /** Adds to the project's count in Redis: the total, or null without Redis (or while it is away). */
  private async add(day: string, units: number): Promise<number | null> {
    if (!this.ledger) return null;
    const key = `${this.ledger.prefix}${day}`;
    try {
      const answers = await this.ledger.redis
        .multi()
        .incrby(key, units)
        .pexpire(key, 2 * DAY_MS)
        .exec();
      const total = Number(answers?.[0]?.[1]);
      return Number.isFinite(total) ? total : null;
    } catch (err) {
      this.redisAway(err);
      return null;
    }
  }

  private redisAway(err: unknown): void {
    this.logger.warn(
      { err: (err as Error).message },
      "YouTube quota: Redis unreachable; counting this instance's share",
    );
  }
}
