import { PRODUCT, SECONDS_PER_HOUR } from '@strm/shared';
import { Alert, Badge, Card, Spinner } from '../../../components/ui/index.ts';
import { formatNumber } from '../../../lib/format.ts';
import { bestValueTier, tierIconGroup } from '../tier-math.ts';
import { LOADING_TIERS, tiersErrorMessage, useTiers } from '../useTiers.ts';

export const BEST_VALUE = 'Best Value';
const ICONS = { 1: '◆', 2: '◆◆', 3: '◆◆◆' } as const;

/** The Mining Tiers cards of the landing page; 'Best Value' on the highest order_by. */
export function TierCards() {
  const tiers = useTiers();
  const best = tiers.data ? bestValueTier(tiers.data) : undefined;
  if (tiers.isPending) return <Spinner label={LOADING_TIERS} />;
  if (tiers.isError) return <Alert tone="error">{tiersErrorMessage(tiers.error)}</Alert>;
  return (
    <div className="grid grid-cols-1 gap-4 sm:grid-cols-2 lg:grid-cols-3">
      {tiers.data.map((tier) => (
        <Card as="article" key={tier.id} className={tier === best ? 'border-violet-500' : undefined}>
          <h3 className="flex items-center gap-2 font-semibold text-white">
            <span aria-hidden="true" className="text-violet-400">
              {ICONS[tierIconGroup(tier.order_by)]}
            </span>
            {tier.name}
            {tier === best && <Badge tone="success">{BEST_VALUE}</Badge>}
          </h3>
          <p className="mt-2 text-xl font-semibold text-white">
            {formatNumber(tier.deposit_requirement)} {PRODUCT}
          </p>
          <p className="text-sm text-slate-400">deposit</p>
          <p className="mt-2 text-sm text-slate-300">
            {formatNumber(tier.hourly_base_rate)} to {formatNumber(tier.hourly_max_rate)} {PRODUCT}/h
          </p>
          <p className="text-sm text-slate-400">
            up to {formatNumber(tier.daily_mining_limit_seconds / SECONDS_PER_HOUR)} h of mining a day
          </p>
        </Card>
      ))}
    </div>
  );
}
