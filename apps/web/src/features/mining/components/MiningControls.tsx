import { PRODUCT, SERVER_MESSAGES, type Tier } from '@strm/shared';
import { Alert, Badge, Button, Card, CardTitle, Spinner } from '../../../components/ui/index.ts';
import { formatNumber } from '../../../lib/format.ts';
import { LOADING_TIERS, tiersErrorMessage, useTiers } from '../../tiers/index.ts';
import { MINING_MESSAGES } from '../messages.ts';
import type { useWalletTransactions } from '../useWalletTransactions.ts';

/** Why a tier's button is disabled, or null when it is not (docs/product.md#tier-actions). */
export function tierActionBlock(
  tier: Tier,
  state: {
    activeTier: string | null | undefined;
    isLive: boolean;
    /** Undefined until the balance is read: no tier is said to be out of reach meanwhile. */
    balance: number | undefined;
    busy: boolean;
  },
): string | null {
  if (state.activeTier === tier.name) return state.isLive ? SERVER_MESSAGES.deactivateWhileLive : null;
  if (state.activeTier) return SERVER_MESSAGES.oneTierOnly;
  if (state.balance === undefined) return MINING_MESSAGES.readingBalance;
  if (state.balance < tier.deposit_requirement) return MINING_MESSAGES.insufficientBalance;
  return null;
}

export function MiningControls({
  activeTier,
  isLive,
  balance,
  actions,
}: {
  activeTier: string | null | undefined;
  isLive: boolean;
  /** Undefined while the balance is being read. */
  balance: number | undefined;
  actions: ReturnType<typeof useWalletTransactions>;
}) {
  const tiers = useTiers();
  const busy = actions.busy !== null;
  return (
    <Card as="section" aria-labelledby="controls-title">
      <CardTitle id="controls-title">Mining Controls</CardTitle>
      {actions.error && actions.error.action !== 'collect' && (
        <Alert tone="error" className="mb-4">
          {actions.error.message}
        </Alert>
      )}
      {tiers.isPending && <Spinner label={LOADING_TIERS} />}
      {tiers.isError && <Alert tone="error">{tiersErrorMessage(tiers.error)}</Alert>}
      {tiers.data && (
        <ul className="grid grid-cols-1 gap-3 sm:grid-cols-2 lg:grid-cols-3">
          {tiers.data.map((tier) => {
            const active = activeTier === tier.name;
            const block = tierActionBlock(tier, { activeTier, isLive, balance, busy });
            const mine = actions.busy?.tier === tier.name;
            return (
              <li
                key={tier.id}
                data-testid={`tier-card-${tier.order_by}`}
                className={`rounded-xl border p-4 ${active ? 'border-emerald-500 bg-emerald-950/30' : 'border-slate-700 bg-slate-950/40'}`}
              >
                <h3 className="flex items-center justify-between font-semibold text-white">
                  {tier.name}
                  {active && <Badge tone="success">Active</Badge>}
                </h3>
                <p className="text-sm text-slate-300">
                  {formatNumber(tier.deposit_requirement)} {PRODUCT} deposit
                </p>
                <p className="text-sm text-slate-400">
                  {formatNumber(tier.hourly_base_rate)} to {formatNumber(tier.hourly_max_rate)} {PRODUCT}/h
                </p>
                <Button
                  className="mt-3 w-full"
                  size="sm"
                  variant={active ? 'danger' : 'primary'}
                  disabled={busy || block !== null}
                  aria-describedby={block ? `tier-block-${tier.id}` : undefined}
                  onClick={() =>
                    void (active
                      ? actions.deactivate(tier.name)
                      : actions.activate(tier.name, tier.deposit_requirement))
                  }
                >
                  {mine
                    ? MINING_MESSAGES.processing
                    : active
                      ? MINING_MESSAGES.deactivate
                      : MINING_MESSAGES.activate}
                </Button>
                {block && (
                  <p id={`tier-block-${tier.id}`} className="mt-2 text-xs text-slate-400">
                    {block}
                  </p>
                )}
              </li>
            );
          })}
        </ul>
      )}
    </Card>
  );
}
