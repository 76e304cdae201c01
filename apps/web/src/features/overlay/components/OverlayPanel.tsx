// The dashboard's overlay panel (docs/platforms.md#the-overlay-and-the-public-card): create, rotate or revoke
// the overlay link, pick its theme with a live preview, opt in to showing the pending reward, and make the
// public mining card public or not.
import {
  type LiveState,
  type MiningStats,
  OVERLAY_THEMES,
  type OverlayState,
  type OverlayTheme,
} from '@strm/shared';
import { useMemo, useState } from 'react';
import { Alert, Button, Card, CardTitle, Input } from '../../../components/ui/index.ts';
import {
  useIssueOverlayLink,
  useOverlayOptions,
  useOverlaySettings,
  usePublicCard,
  useRevokeOverlayLink,
} from '../api.ts';
import { OVERLAY_PANEL_TEXT as T, THEME_NAMES } from '../messages.ts';
import { SAMPLE_STATE } from '../view/state.ts';
import { OverlayPreview } from './OverlayPreview.tsx';

/** What the overlay would show now, from the dashboard's own live figures (sample ones before any). */
function previewState(
  theme: OverlayTheme,
  showBalance: boolean,
  live: LiveState,
  stats: MiningStats | undefined,
): OverlayState {
  if (!stats) return { ...SAMPLE_STATE, theme, pendingReward: showBalance ? 1.5 : null };
  return {
    theme,
    status: live.isLive ? 'mining' : 'ready',
    platform: live.platform,
    tier: stats.tier,
    sessionMined: live.minedAmount,
    sessionSeconds: live.streamDuration,
    miningRate: live.isLive ? live.miningRate : stats.miningRate,
    currentDailyDuration: live.isLive ? live.currentDailyDuration : stats.currentDailyDuration,
    dailyLimitSeconds: stats.dailyLimitSeconds,
    nextRateIncrease: stats.nextRateIncrease,
    pendingReward: showBalance ? stats.pendingReward : null,
  };
}

type Picks = { theme?: OverlayTheme; showBalance?: boolean; card?: boolean };

/**
 * The streamer's picks, shown from the click on. A controlled input must take its new value in the click's
 * own event: a request's state reaches React a task later, and until then React puts the browser's change
 * back (the radio flicks back to the old theme, and a second click lands on a stale form). Each pick is
 * dropped when its request settles, and the cache shows again: the server's answer, or after a refusal the
 * value it kept.
 */
function usePicks() {
  const [picks, setPicks] = useState<Picks>({});
  async function pick<T>(change: Picks, request: () => Promise<T>) {
    setPicks((old) => ({ ...old, ...change }));
    try {
      await request();
    } catch {
      // The mutation's own state holds the error the panel shows.
    } finally {
      setPicks((old) => {
        const next = { ...old };
        for (const k of Object.keys(change) as (keyof Picks)[]) {
          if (next[k] === change[k]) delete next[k];
        }
        return next;
      });
    }
  }
  return [picks, pick] as const;
}

export function OverlayPanel({
  wallet,
  live,
  stats,
}: {
  wallet: string;
  live: LiveState;
  stats: MiningStats | undefined;
}) {
  const settings = useOverlaySettings(wallet);
  const issue = useIssueOverlayLink(wallet);
  const revoke = useRevokeOverlayLink(wallet);
  const options = useOverlayOptions(wallet);
  const card = usePublicCard(wallet);
  const [copied, setCopied] = useState(false);
  const [picks, pick] = usePicks();
  const overlay = settings.data?.overlay;
  const theme = picks.theme ?? overlay?.theme ?? 'corner-badge';
  const showBalance = picks.showBalance ?? overlay?.showBalance ?? false;
  const cardEnabled = picks.card ?? settings.data?.card.enabled ?? false;
  const choose = (change: { theme?: OverlayTheme; showBalance?: boolean }) =>
    void pick(change, () => options.mutateAsync(change));
  const state = useMemo(
    () => previewState(theme, showBalance, live, stats),
    [theme, showBalance, live, stats],
  );
  // The address of the link made in this visit (the server keeps only its hash, so never after).
  const fresh = issue.data && overlay?.active ? issue.data.url : null;
  const busy = issue.isPending || revoke.isPending;
  const error = [settings, issue, revoke, options, card].find((q) => q.error)?.error;

  return (
    <Card
      as="section"
      aria-labelledby="overlay-title"
      data-testid="overlay-panel"
      className="flex flex-col gap-4"
    >
      <CardTitle id="overlay-title">{T.title}</CardTitle>
      <p className="text-sm text-slate-300">{T.intro}</p>
      {error && <Alert tone="error" title={settings.error ? T.failed : error.message} />}

      <div className="flex flex-wrap items-center gap-2">
        {overlay?.active ? (
          <>
            <Button variant="secondary" disabled={busy} onClick={() => issue.mutate()}>
              {T.rotate}
            </Button>
            <Button variant="danger" disabled={busy} onClick={() => revoke.mutate()}>
              {T.revoke}
            </Button>
          </>
        ) : (
          <Button disabled={busy || !settings.data} onClick={() => issue.mutate()}>
            {T.create}
          </Button>
        )}
      </div>
      {fresh ? (
        <div className="flex flex-col gap-1">
          <label htmlFor="overlay-link" className="text-sm font-medium text-slate-200">
            {T.linkLabel}
          </label>
          <div className="flex gap-2">
            <Input id="overlay-link" readOnly value={fresh} onFocus={(e) => e.currentTarget.select()} />
            <Button
              variant="secondary"
              onClick={() => void navigator.clipboard?.writeText(fresh).then(() => setCopied(true))}
            >
              {copied ? T.copied : T.copy}
            </Button>
          </div>
          <p className="text-xs text-amber-300">{T.linkOnce}</p>
        </div>
      ) : (
        <p className="text-sm text-slate-400">
          {overlay?.active && overlay.createdAt
            ? `${T.activeSince} ${new Date(overlay.createdAt).toLocaleString()}${
                overlay.expiresAt
                  ? `; ${T.expiresOn} ${new Date(overlay.expiresAt).toLocaleDateString()}`
                  : ''
              }.`
            : T.noLink}
        </p>
      )}

      <fieldset className="flex flex-col gap-2">
        <legend className="mb-1 text-sm font-medium text-slate-200">{T.theme}</legend>
        <div className="flex flex-wrap gap-3">
          {OVERLAY_THEMES.map((t) => (
            <label key={t} className="flex items-center gap-2 text-sm text-slate-200">
              <input
                type="radio"
                name="overlay-theme"
                value={t}
                checked={theme === t}
                disabled={!settings.data}
                onChange={() => choose({ theme: t })}
              />
              {THEME_NAMES[t]}
            </label>
          ))}
        </div>
      </fieldset>
      <label className="flex items-center gap-2 text-sm text-slate-200">
        <input
          type="checkbox"
          checked={showBalance}
          disabled={!settings.data || options.isPending}
          onChange={(e) => choose({ showBalance: e.currentTarget.checked })}
        />
        {T.showBalance}
      </label>
      <OverlayPreview state={state} label={`${T.preview}: ${THEME_NAMES[theme]}`} />

      <div className="flex flex-col gap-2 border-t border-slate-700/70 pt-4">
        <h3 className="text-base font-semibold text-white">{T.cardTitle}</h3>
        <label className="flex items-center gap-2 text-sm text-slate-200">
          <input
            type="checkbox"
            checked={cardEnabled}
            disabled={!settings.data || card.isPending}
            onChange={(e) => {
              const enabled = e.currentTarget.checked;
              void pick({ card: enabled }, () => card.mutateAsync(enabled));
            }}
          />
          {T.cardToggle}
        </label>
        <p className="text-xs text-slate-400">{T.cardHint}</p>
        {settings.data?.card.url && (
          <a href={settings.data.card.url} target="_blank" rel="noopener" className="text-sm">
            {T.cardOpen}
          </a>
        )}
      </div>
    </Card>
  );
}
