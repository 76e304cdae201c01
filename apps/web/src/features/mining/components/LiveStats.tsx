import {
  DAILY_LIMIT_WARNING_SECONDS,
  INTERVALS_MS,
  type MiningStats,
  PRODUCT,
  RATE_INCREASE_PERIOD_SECONDS,
  SERVER_MESSAGES,
  type StreamPlatform,
} from '@strm/shared';
import { useEffect, useRef, useState } from 'react';
import { Card, CardTitle, cn, ProgressBar, Spinner } from '../../../components/ui/index.ts';
import { formatDuration, formatNumber } from '../../../lib/format.ts';
import { emitSocket, type SocketState, useSocketEvent } from '../../../lib/socket.ts';
import { dashboardEarnings } from '../../tiers/index.ts';
import { MINING_MESSAGES } from '../messages.ts';
import { EarningsHistory } from './EarningsHistory.tsx';

function useNow(active: boolean): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!active) return;
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [active]);
  return now;
}

/** Live stats of the dashboard (docs/product.md#rate-increase, #daily-cap). */
export function LiveStats({
  wallet,
  activeTier,
  live,
  stats,
}: {
  wallet: string;
  /** The active tier's name; null without one (no rate clock runs then). */
  activeTier: string | null | undefined;
  live: SocketState;
  stats: MiningStats | undefined;
}) {
  const nextIncrease = live.nextRateIncrease ?? stats?.nextRateIncrease ?? null;
  const now = useNow(nextIncrease !== null);
  const remainingToIncrease = nextIncrease ? Math.max(0, (Date.parse(nextIncrease) - now) / 1000) : null;
  const [rateHint, setRateHint] = useState(false);
  const asked = useRef<string | null>(null);

  // At zero, ask the server for the increase once per due time (it decides).
  useEffect(() => {
    if (
      remainingToIncrease === 0 &&
      live.isLive &&
      live.platform &&
      nextIncrease &&
      asked.current !== nextIncrease
    ) {
      asked.current = nextIncrease;
      emitSocket('increase-rate', { platform: live.platform as StreamPlatform, wallet });
    }
  }, [remainingToIncrease, live.isLive, live.platform, nextIncrease, wallet]);

  useSocketEvent('rate-increased', () => {
    setRateHint(true);
    setTimeout(() => setRateHint(false), INTERVALS_MS.rateToast);
  });

  const dailyLimit = stats?.dailyLimitSeconds ?? 0;
  const dailyUsed = live.isLive ? live.currentDailyDuration : (stats?.currentDailyDuration ?? 0);
  const remainingDaily = Math.max(0, dailyLimit - dailyUsed);
  const amber = dailyLimit > 0 && remainingDaily < DAILY_LIMIT_WARNING_SECONDS;
  const rate = live.isLive ? live.miningRate : (stats?.miningRate ?? 0);
  // On the dashboard, daily earnings are the tier's whole daily limit in hours at the current rate.
  const earnings =
    dailyLimit > 0 ? dashboardEarnings({ daily_mining_limit_seconds: dailyLimit }, rate) : null;

  // Until the stats arrive (or a live session reports), the rate clock and the day's mining time are not
  // known: nothing is shown as if it were (an active tier read 'Max rate reached' beside a full bar).
  if (!live.isLive && !stats) {
    return (
      <Card as="section" aria-labelledby="live-title">
        <CardTitle id="live-title">Live Stats</CardTitle>
        <Spinner />
      </Card>
    );
  }

  return (
    <Card as="section" aria-labelledby="live-title">
      <CardTitle id="live-title">Live Stats</CardTitle>
      <dl className="grid grid-cols-2 gap-3 lg:grid-cols-4">
        <Stat label="Stream duration" value={formatDuration(live.streamDuration)} testId="stream-duration" />
        <Stat
          label="Mined this session"
          value={`${formatNumber(live.minedAmount)} ${PRODUCT}`}
          testId="mined-amount"
        />
        <Stat label="Mining rate" value={`${formatNumber(rate)} ${PRODUCT}/h`} testId="mining-rate" />
        {earnings && (
          <>
            <Stat
              label="Daily earnings"
              value={`${formatNumber(earnings.daily)} ${PRODUCT}`}
              testId="live-daily-earnings"
            />
            <Stat
              label="Monthly earnings"
              value={`${formatNumber(earnings.monthly)} ${PRODUCT}`}
              testId="live-monthly-earnings"
            />
          </>
        )}
        <div>
          <dt className="text-xs uppercase tracking-wide text-slate-400">Remaining today</dt>
          <dd
            data-testid="remaining-daily"
            className={cn('text-lg font-semibold tabular-nums', amber ? 'text-amber-400' : 'text-white')}
          >
            {formatDuration(remainingDaily)}
          </dd>
          {amber && (
            <dd className="text-xs text-amber-400">
              {remainingDaily === 0
                ? SERVER_MESSAGES.dailyLimitTomorrow
                : SERVER_MESSAGES.approachingDailyLimit}
            </dd>
          )}
        </div>
      </dl>
      <div className="mt-4">
        <p className="text-sm text-slate-300">
          Next rate increase:{' '}
          <span className="font-medium text-white" data-testid="rate-countdown">
            {!activeTier
              ? MINING_MESSAGES.noActiveTier
              : remainingToIncrease === null
                ? MINING_MESSAGES.maxRateReached
                : formatDuration(remainingToIncrease)}
          </span>
          {rateHint && <output className="ml-2 text-emerald-300">{MINING_MESSAGES.rateIncreased}</output>}
        </p>
        <ProgressBar
          label="Progress to the next rate increase (10 days)"
          // Empty without a tier, full once the max rate is reached.
          value={activeTier ? RATE_INCREASE_PERIOD_SECONDS - (remainingToIncrease ?? 0) : 0}
          max={RATE_INCREASE_PERIOD_SECONDS}
          tone="success"
          className="mt-2"
        />
      </div>
      {stats && stats.recentSessions.length > 0 && (
        <div className="mt-6">
          <h3 className="mb-2 text-sm font-semibold text-slate-200">Earnings history</h3>
          <EarningsHistory sessions={stats.recentSessions} />
        </div>
      )}
    </Card>
  );
}

function Stat({ label, value, testId }: { label: string; value: string; testId: string }) {
  return (
    <div>
      <dt className="text-xs uppercase tracking-wide text-slate-400">{label}</dt>
      <dd className="text-lg font-semibold text-white tabular-nums" data-testid={testId}>
        {value}
      </dd>
    </div>
  );
}
