import { PRODUCT } from '@strm/shared';
import { Alert, Button, Card, CardTitle } from '../../../components/ui/index.ts';
import { formatNumber } from '../../../lib/format.ts';
import { MINING_MESSAGES } from '../messages.ts';
import type { useWalletTransactions } from '../useWalletTransactions.ts';

/**
 * Collect is disabled while live, while collecting, or with nothing pending
 * (docs/product.md#streaming-and-rewards).
 */
export function canCollect(pending: number, isLive: boolean, collecting: boolean): boolean {
  return !isLive && !collecting && pending > 0;
}

export function RewardsPanel({
  pending,
  isLive,
  sessionMined,
  actions,
}: {
  pending: number;
  isLive: boolean;
  sessionMined: number;
  actions: ReturnType<typeof useWalletTransactions>;
}) {
  const collecting = actions.busy?.action === 'collect';
  return (
    <Card as="section" aria-labelledby="rewards-title">
      <CardTitle id="rewards-title">Mining Rewards</CardTitle>
      <dl className="grid grid-cols-2 gap-3">
        <div>
          <dt className="text-xs uppercase tracking-wide text-slate-400">Available rewards</dt>
          <dd className="text-xl font-semibold text-white tabular-nums" data-testid="pending-reward">
            {formatNumber(pending)} {PRODUCT}
          </dd>
        </div>
        {isLive && (
          <div>
            <dt className="text-xs uppercase tracking-wide text-slate-400">Current session</dt>
            <dd className="text-xl font-semibold text-emerald-300 tabular-nums" data-testid="session-mined">
              {formatNumber(sessionMined)} {PRODUCT}
            </dd>
          </div>
        )}
      </dl>
      <Button
        className="mt-4"
        disabled={!canCollect(pending, isLive, collecting) || actions.busy !== null}
        onClick={() => void actions.collect()}
      >
        {collecting ? MINING_MESSAGES.collecting : MINING_MESSAGES.collect}
      </Button>
      {actions.error?.action === 'collect' && (
        <Alert tone="error" className="mt-3">
          {actions.error.message}
        </Alert>
      )}
      {actions.success && (
        <Alert tone="success" className="mt-3">
          {actions.success}
        </Alert>
      )}
    </Card>
  );
}
