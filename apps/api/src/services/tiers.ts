import { DEFAULT_TIERS, fromBaseUnits, type Tier, toBaseUnits } from '@strm/shared';
import type { PrismaClient } from '../db/index.ts';
import type { Tier as TierRow } from '../generated/prisma/client.ts';

export function toApiTier(row: TierRow): Tier {
  return {
    id: row.id,
    name: row.name,
    deposit_requirement: fromBaseUnits(row.depositRequirementUnits),
    base_multiplier: row.baseMultiplier,
    hourly_base_rate: fromBaseUnits(row.hourlyBaseRateUnits),
    max_multiplier: row.maxMultiplier,
    hourly_max_rate: fromBaseUnits(row.hourlyMaxRateUnits),
    daily_mining_limit_seconds: row.dailyMiningLimitSeconds,
    order_by: row.orderBy,
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

export async function listTiers(prisma: PrismaClient): Promise<Tier[]> {
  const rows = await prisma.tier.findMany({ orderBy: { orderBy: 'asc' } });
  return rows.map(toApiTier);
}
