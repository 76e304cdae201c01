import { INTERVALS_MS, PRODUCT, SERVER_MESSAGES, type Streamer, TIMEZONE_MAX_CHANGES } from '@strm/shared';
import { useEffect, useMemo, useState } from 'react';
import { Alert, Badge, Card, CardTitle, Field, Select, Spinner } from '../../../components/ui/index.ts';
import { useAfterPaint } from '../../../lib/after-paint.ts';
import { formatCurrency, formatNumber, shortAddress } from '../../../lib/format.ts';
import { addressExplorerUrl, useClientConfig } from '../../client-config/index.ts';
import { useTokenBalance } from '../../streamer/index.ts';
import { useChangeTimezone, useInitialTimezone } from '../api.ts';
import { holderTier } from '../holder-tier.ts';
import { MINING_MESSAGES } from '../messages.ts';

export type MiningStatus = keyof typeof MINING_MESSAGES.status;

export function miningStatus(activeTier: string | null | undefined, isLive: boolean): MiningStatus {
  if (!activeTier) return 'inactive';
  return isLive ? 'mining' : 'ready';
}

const statusTone = { inactive: 'neutral', ready: 'accent', mining: 'success' } as const;

export function AccountPanel({
  wallet,
  streamer,
  isLive,
  price,
}: {
  wallet: string;
  streamer: Streamer;
  isLive: boolean;
  price: number | null;
}) {
  const balance = useTokenBalance(wallet);
  const config = useClientConfig();
  const explorer = addressExplorerUrl(config.data?.links.addressExplorer, wallet);
  const status = miningStatus(streamer.activeTier, isLive);
  const amount = balance.data?.balance ?? 0;
  return (
    <Card as="section" aria-labelledby="account-title">
      <CardTitle id="account-title">Account</CardTitle>
      <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
        <div>
          <p className="text-xs uppercase tracking-wide text-slate-400">Balance</p>
          {balance.isPending && <Spinner />}
          {balance.isError && <Alert tone="error">{MINING_MESSAGES.walletDataFailed}</Alert>}
          {balance.data && (
            <>
              <p className="text-xl font-semibold text-white tabular-nums" data-testid="wallet-balance">
                {formatNumber(amount)} {PRODUCT}
              </p>
              {price !== null && <p className="text-sm text-slate-400">≈ {formatCurrency(amount * price)}</p>}
              <p className="mt-1 text-sm text-slate-300">
                Holder tier: <span className="font-medium capitalize">{holderTier(amount)}</span>
              </p>
            </>
          )}
        </div>
        <div>
          <p className="text-xs uppercase tracking-wide text-slate-400">Mining status</p>
          <Badge tone={statusTone[status]} className="mt-1 text-sm">
            <span data-testid="mining-status">{MINING_MESSAGES.status[status]}</span>
          </Badge>
        </div>
        <div>
          <p className="text-xs uppercase tracking-wide text-slate-400">Wallet</p>
          <p className="font-mono text-sm text-white" title={wallet}>
            {shortAddress(wallet)}
          </p>
          {explorer && (
            <a href={explorer} target="_blank" rel="noreferrer" className="text-sm">
              View on explorer
            </a>
          )}
        </div>
        <TimezoneSelector wallet={wallet} streamer={streamer} isLive={isLive} />
      </div>
    </Card>
  );
}

function zones(current: string): string[] {
  const all = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
  return all.includes(current) ? all : [current, ...all];
}

/** The streamer's time zone (the daily cap's day), a clock refreshed every 60 s, and the change rules. */
export function TimezoneSelector({
  wallet,
  streamer,
  isLive,
}: {
  wallet: string;
  streamer: Streamer;
  isLive: boolean;
}) {
  const change = useChangeTimezone(wallet);
  const initial = useInitialTimezone(wallet, streamer);
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    const timer = setInterval(() => setNow(new Date()), INTERVALS_MS.timezoneClock);
    return () => clearInterval(timer);
  }, []);
  const pending = change.isPending ? change : initial.isPending ? initial : null;
  const shown = pending?.variables ?? streamer.timezone;
  // Some 400 zones: rendered after the dashboard's first paint (they were most of its first render's work);
  // until then the select holds the zone it shows.
  const listed = useAfterPaint(true);
  const options = useMemo(() => (listed ? zones(shown) : [shown]), [listed, shown]);
  const exhausted = streamer.timezoneChangedTimes > TIMEZONE_MAX_CHANGES;
  const rule = isLive
    ? SERVER_MESSAGES.timezoneWhileLive
    : exhausted
      ? SERVER_MESSAGES.timezoneLimit
      : undefined;
  const clock = new Intl.DateTimeFormat('en-US', {
    timeZone: streamer.timezone,
    hour: '2-digit',
    minute: '2-digit',
  }).format(now);
  return (
    <Field
      label="Time zone"
      hint={rule ?? `Local time ${clock}`}
      error={change.error instanceof Error ? change.error.message : undefined}
    >
      <Select
        value={shown}
        disabled={Boolean(rule) || pending !== null}
        onChange={(e) => change.mutate(e.target.value)}
      >
        {options.map((z) => (
          <option key={z} value={z}>
            {z}
          </option>
        ))}
      </Select>
    </Field>
  );
}
