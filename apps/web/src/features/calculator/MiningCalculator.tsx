// The Mining Calculator panel (docs/product.md#mining-calculator), on the landing page and the dashboard.
import { PRODUCT, RATE_DOUBLING_DAYS, type Tier } from '@strm/shared';
import { useEffect, useState } from 'react';
import {
  Alert,
  Button,
  Card,
  CardTitle,
  Field,
  Input,
  ProgressBar,
  Spinner,
} from '../../components/ui/index.ts';
import { formatCurrency, formatNumber, formatPrice } from '../../lib/format.ts';
import {
  bestValueTier,
  calculatorEarnings,
  LOADING_TIERS,
  tiersErrorMessage,
  useTiers,
} from '../tiers/index.ts';
import { CALCULATOR, clampDaysHolding, clampHoursPerDay, hoursPerDayBounds, parsePrice } from './inputs.ts';
import { rateAfterDays } from './rate.ts';

export const CALCULATOR_MESSAGES = {
  title: 'Mining Calculator',
  priceLabel: `${PRODUCT} price (USD)`,
  hoursLabel: 'Hours streamed per day',
  daysLabel: 'Days holding the tier',
  tierLabel: 'Mining tier',
  marketPrice: 'Current market price',
  defaultPrice: 'No market price available: using the default price.',
  progression: (tier: Tier) =>
    `The rate starts at ${formatNumber(tier.hourly_base_rate)} ${PRODUCT}/h and doubles every ${RATE_DOUBLING_DAYS} days the tier stays active, up to ${formatNumber(tier.hourly_max_rate)} ${PRODUCT}/h.`,
} as const;

/** The panel's inputs as typed (strings) and their parsed, clamped values. */
export function MiningCalculator({ marketPrice }: { marketPrice: number | null }) {
  const tiers = useTiers();
  const [tierId, setTierId] = useState<number | null>(null);
  const [priceText, setPriceText] = useState(String(marketPrice ?? CALCULATOR.defaultPriceUsd));
  const [priceTouched, setPriceTouched] = useState(false);
  const [hoursText, setHoursText] = useState(String(CALCULATOR.defaultHoursPerDay));
  const [daysText, setDaysText] = useState(String(CALCULATOR.defaultDaysHolding));

  const tier =
    tiers.data?.find((t) => t.id === tierId) ?? (tiers.data ? bestValueTier(tiers.data) : undefined);

  // The market price replaces the default until the user types their own.
  useEffect(() => {
    if (marketPrice !== null && !priceTouched) setPriceText(String(marketPrice));
  }, [marketPrice, priceTouched]);

  const price = parsePrice(priceText);
  const hours = clampHoursPerDay(Number.parseFloat(hoursText), tier);
  const days = clampDaysHolding(Number.parseFloat(daysText));
  const bounds = hoursPerDayBounds(tier);
  const rate = tier ? rateAfterDays(tier, days) : 0;
  const earnings = calculatorEarnings(hours, rate);

  function chooseTier(next: Tier) {
    setTierId(next.id);
    setHoursText(String(clampHoursPerDay(Number.parseFloat(hoursText), next)));
  }

  return (
    <Card as="section" aria-labelledby="calculator-title" data-testid="mining-calculator">
      <CardTitle id="calculator-title">{CALCULATOR_MESSAGES.title}</CardTitle>
      <div className="grid min-w-0 gap-6 lg:grid-cols-2">
        <div className="flex min-w-0 flex-col gap-4">
          <Field
            label={CALCULATOR_MESSAGES.priceLabel}
            hint={
              marketPrice === null
                ? CALCULATOR_MESSAGES.defaultPrice
                : `${CALCULATOR_MESSAGES.marketPrice}: ${formatPrice(marketPrice)}`
            }
          >
            <Input
              type="number"
              inputMode="decimal"
              min={0}
              step={CALCULATOR.priceStep}
              value={priceText}
              onChange={(e) => {
                setPriceTouched(true);
                setPriceText(e.target.value);
              }}
            />
          </Field>
          <Field label={CALCULATOR_MESSAGES.hoursLabel} hint={`${bounds.min} to ${bounds.max} hours`}>
            <Input
              type="number"
              inputMode="decimal"
              min={bounds.min}
              max={bounds.max}
              value={hoursText}
              onChange={(e) => setHoursText(e.target.value)}
              onBlur={() => setHoursText(String(hours))}
            />
          </Field>
          <Field
            label={CALCULATOR_MESSAGES.daysLabel}
            hint={`${CALCULATOR.minDaysHolding} to ${CALCULATOR.maxDaysHolding} days`}
          >
            <Input
              type="number"
              inputMode="numeric"
              min={CALCULATOR.minDaysHolding}
              max={CALCULATOR.maxDaysHolding}
              value={daysText}
              onChange={(e) => setDaysText(e.target.value)}
              onBlur={() => setDaysText(String(days))}
            />
          </Field>
          <fieldset>
            <legend className="mb-2 text-sm font-medium text-slate-200">
              {CALCULATOR_MESSAGES.tierLabel}
            </legend>
            {tiers.isPending && <Spinner label={LOADING_TIERS} />}
            {tiers.isError && <Alert tone="error">{tiersErrorMessage(tiers.error)}</Alert>}
            {tiers.data && (
              <div className="grid grid-cols-3 gap-2">
                {tiers.data.map((t) => (
                  <Button
                    key={t.id}
                    size="sm"
                    variant={t.id === tier?.id ? 'primary' : 'secondary'}
                    aria-pressed={t.id === tier?.id}
                    onClick={() => chooseTier(t)}
                  >
                    {t.name}
                  </Button>
                ))}
              </div>
            )}
          </fieldset>
        </div>
        <div className="flex min-w-0 flex-col gap-4" aria-live="polite">
          <dl className="grid grid-cols-2 gap-3 text-sm">
            <Output label={CALCULATOR_MESSAGES.marketPrice} value={formatPrice(price)} />
            {tier && (
              <>
                <Output
                  label="Deposit required"
                  value={`${formatNumber(tier.deposit_requirement)} ${PRODUCT}`}
                />
                <Output label="Base rate" value={`${formatNumber(tier.hourly_base_rate)} ${PRODUCT}/h`} />
                <Output label="Max rate" value={`${formatNumber(tier.hourly_max_rate)} ${PRODUCT}/h`} />
              </>
            )}
          </dl>
          {tier && <p className="text-sm text-slate-400">{CALCULATOR_MESSAGES.progression(tier)}</p>}
          <dl className="grid grid-cols-2 gap-3">
            <Earning
              label="Daily earnings"
              tokens={earnings.daily}
              usd={earnings.daily * price}
              testId="daily-earnings"
            />
            <Earning
              label="Monthly earnings"
              tokens={earnings.monthly}
              usd={earnings.monthly * price}
              testId="monthly-earnings"
            />
          </dl>
          <div>
            <p className="text-sm text-slate-300">
              Current mining rate:{' '}
              <span className="font-semibold text-white" data-testid="current-rate">
                {formatNumber(rate)} {PRODUCT}/h
              </span>
            </p>
            <ProgressBar
              label="Mining rate against the tier's max rate"
              value={rate}
              max={tier?.hourly_max_rate ?? 0}
              className="mt-2"
            />
          </div>
        </div>
      </div>
    </Card>
  );
}

function Output({ label, value }: { label: string; value: string }) {
  return (
    <div className="min-w-0 break-words">
      <dt className="text-slate-400">{label}</dt>
      <dd className="font-medium text-white tabular-nums">{value}</dd>
    </div>
  );
}

function Earning({
  label,
  tokens,
  usd,
  testId,
}: {
  label: string;
  tokens: number;
  usd: number;
  testId: string;
}) {
  return (
    <div className="min-w-0 break-words rounded-xl bg-slate-950/50 p-3" data-testid={testId}>
      <dt className="text-xs uppercase tracking-wide text-slate-400">{label}</dt>
      <dd className="mt-1 text-lg font-semibold text-white tabular-nums">
        {formatNumber(tokens)} {PRODUCT}
      </dd>
      <dd className="text-sm text-slate-400">≈ {formatCurrency(usd)}</dd>
    </div>
  );
}
