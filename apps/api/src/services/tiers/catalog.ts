import { DEFAULT_TIERS, fromBaseUnits, type Tier, toBaseUnits } from '@strm/shared';
import type { PrismaClient } from '../../db/index.ts';
import type { Tier as TierRow } from '../../generated/prisma/client.ts';
import type { Logger } from '../../logger.ts';

/** A tier as the engine uses it: base units, the deposit taken from the chain's config. */
export interface CatalogTier {
  id: number;
  name: string;
  depositUnits: bigint;
  baseMultiplier: number;
  hourlyBaseRateUnits: bigint;
  maxMultiplier: number;
  hourlyMaxRateUnits: bigint;
  dailyMiningLimitSeconds: number;
  orderBy: number;
}

export function toApiTier(tier: CatalogTier): Tier {
  return {
    id: tier.id,
    name: tier.name,
    deposit_requirement: fromBaseUnits(tier.depositUnits),
    base_multiplier: tier.baseMultiplier,
    hourly_base_rate: fromBaseUnits(tier.hourlyBaseRateUnits),
    max_multiplier: tier.maxMultiplier,
    hourly_max_rate: fromBaseUnits(tier.hourlyMaxRateUnits),
    daily_mining_limit_seconds: tier.dailyMiningLimitSeconds,
    order_by: tier.orderBy,
  };
}

function fromRow(row: TierRow, depositUnits: bigint): CatalogTier {
  return {
    id: row.id,
    name: row.name,
    depositUnits,
    baseMultiplier: row.baseMultiplier,
    hourlyBaseRateUnits: row.hourlyBaseRateUnits,
    maxMultiplier: row.maxMultiplier,
    hourlyMaxRateUnits: row.hourlyMaxRateUnits,
    dailyMiningLimitSeconds: row.dailyMiningLimitSeconds,
    orderBy: row.orderBy,
  };
}

/** Seeds the default tier table into an empty tiers table (operators' edits are never overwritten). */
export async function seedDefaultTiers(prisma: PrismaClient): Promise<number> {
  if ((await prisma.tier.count()) > 0) return 0;
  const { count } = await prisma.tier.createMany({
    data: DEFAULT_TIERS.map((t) => ({
      name: t.name,
      depositRequirementUnits: toBaseUnits(t.deposit_requirement),
      baseMultiplier: t.base_multiplier,
      hourlyBaseRateUnits: toBaseUnits(t.hourly_base_rate),
      maxMultiplier: t.max_multiplier,
      hourlyMaxRateUnits: toBaseUnits(t.hourly_max_rate),
      dailyMiningLimitSeconds: t.daily_mining_limit_seconds,
      orderBy: t.order_by,
    })),
    skipDuplicates: true,
  });
  return count;
}

/** Reads the chain config's tier deposits by name (null when the config cannot be read). */
export type ChainDeposits = () => Promise<Map<string, bigint> | null>;

/**
 * The tier table served from memory: rates and limits from the database, each deposit from the chain's
 * config (the truth). Refreshed when either changes: the config account subscription and whoever edits
 * the table through the API call `refresh()`, and a periodic reload (TIERS_REFRESH_MS) catches edits made
 * directly in the database. Until the config was read once, the database's deposits stand in.
 */
export class TierCatalog {
  private tiers: CatalogTier[] = [];
  private byName = new Map<string, CatalogTier>();
  private body = '[]';
  private refreshing: Promise<void> | undefined;

  constructor(
    private readonly prisma: PrismaClient,
    private readonly chainDeposits: ChainDeposits,
    private readonly logger?: Logger,
  ) {}

  /** Reloads both sources; concurrent calls share one reload. */
  refresh(): Promise<void> {
    this.refreshing ??= this.load().finally(() => {
      this.refreshing = undefined;
    });
    return this.refreshing;
  }

  private async load(): Promise<void> {
    const [rows, deposits] = await Promise.all([
      this.prisma.tier.findMany({ orderBy: { orderBy: 'asc' } }),
      this.chainDeposits().catch((err: unknown) => {
        this.logger?.warn({ err }, 'tier deposits: chain config unreadable, database deposits stand in');
        return null;
      }),
    ]);
    const tiers = rows
      // With the chain config read, a tier it does not list cannot be activated: leave it out.
      .filter((row) => !deposits || deposits.has(row.name))
      .map((row) => fromRow(row, deposits?.get(row.name) ?? row.depositRequirementUnits));
    this.tiers = tiers;
    this.byName = new Map(tiers.map((t) => [t.name, t]));
    // Rates of tiers the chain no longer lists still apply to streamers activated on them.
    for (const row of rows) if (!this.byName.has(row.name)) this.byName.set(row.name, fromRow(row, 0n));
    this.body = JSON.stringify(tiers.map(toApiTier));
  }

  list(): readonly CatalogTier[] {
    return this.tiers;
  }

  /** The API answer, serialised once per refresh. */
  json(): string {
    return this.body;
  }

  get(name: string): CatalogTier | undefined {
    return this.byName.get(name);
  }
}
