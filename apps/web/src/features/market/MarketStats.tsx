import { Alert, Card, CardTitle, Spinner } from '../../components/ui/index.ts';
import { formatCurrency, formatNumber, formatPrice } from '../../lib/format.ts';
import { MARKET_MESSAGES, useMarket } from './useMarket.ts';

function Stat({ label, value }: { label: string; value: string }) {
  return (
    <div className="min-w-0 rounded-xl bg-slate-950/50 p-3">
      <dt className="text-xs uppercase tracking-wide text-slate-400">{label}</dt>
      <dd className="mt-1 break-words text-lg font-semibold text-white tabular-nums">{value}</dd>
    </div>
  );
}

export function MarketStats() {
  const market = useMarket();
  const data = market.data;
  return (
    <Card as="section" aria-labelledby="market-title" data-testid="market-stats">
      <CardTitle id="market-title">{MARKET_MESSAGES.title}</CardTitle>
      {market.isPending && <Spinner label={MARKET_MESSAGES.loading} />}
      {market.isError && <Alert tone="error">{MARKET_MESSAGES.unreachable}</Alert>}
      {data && !data.configured && <p className="text-sm text-slate-400">{MARKET_MESSAGES.notConfigured}</p>}
      {data?.error && <Alert tone="error">{data.error}</Alert>}
      {data?.market && (
        <dl className="mt-3 grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-5">
          <Stat label="Price" value={formatPrice(data.market.price)} />
          <Stat label="Market Cap" value={formatCurrency(data.market.marketCap)} />
          <Stat label="24h Volume" value={formatCurrency(data.market.volume24h)} />
          <Stat label="24h Buys" value={formatNumber(data.market.transactions.buys)} />
          <Stat label="24h Sells" value={formatNumber(data.market.transactions.sells)} />
        </dl>
      )}
    </Card>
  );
}
