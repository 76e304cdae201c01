// What an overlay shows, between server messages: the state the server sent last and the moment it
// arrived, from which the session's amount counts up at the mining rate until the next one.
import type { OverlayState, OverlayUpdate } from '@strm/shared';

export interface ShownState {
  state: OverlayState;
  /** performance.now() when the figures arrived. */
  receivedAt: number;
  /** False while the connection is lost: the figures stay as they were, nothing counts on. */
  live: boolean;
}

export function received(state: OverlayState, now: number): ShownState {
  return { state, receivedAt: now, live: true };
}

export function patched(shown: ShownState, update: OverlayUpdate, now: number): ShownState {
  return { state: { ...shown.state, ...update }, receivedAt: now, live: true };
}

/** The figures as shown at `now`, held there until the server speaks again. */
export function held(shown: ShownState, now: number): ShownState {
  const state = {
    ...shown.state,
    sessionMined: sessionAmount(shown, now),
    currentDailyDuration: shown.state.dailyLimitSeconds - dailyLeft(shown, now),
  };
  return { state, receivedAt: now, live: false };
}

/** The session's amount now: what the server said, plus the rate over the time since (while mining). */
export function sessionAmount(shown: ShownState, now: number): number {
  const { state } = shown;
  if (state.status !== 'mining' || !shown.live) return state.sessionMined;
  const hours = Math.max(0, now - shown.receivedAt) / 3_600_000;
  return state.sessionMined + state.miningRate * hours;
}

/** Daily mining time left now, in seconds (counting down while mining). */
export function dailyLeft(shown: ShownState, now: number): number {
  const { state } = shown;
  const elapsed = state.status === 'mining' && shown.live ? Math.max(0, now - shown.receivedAt) / 1000 : 0;
  return Math.max(0, state.dailyLimitSeconds - state.currentDailyDuration - elapsed);
}

/** Seconds until the rate next doubles (null at the maximum rate), from the wall clock. */
export function untilRateIncrease(state: OverlayState, wallNow: number): number | null {
  if (!state.nextRateIncrease) return null;
  return Math.max(0, (Date.parse(state.nextRateIncrease) - wallNow) / 1000);
}

/** What the preview shows before the dashboard has figures of its own. */
export const SAMPLE_STATE: OverlayState = {
  theme: 'corner-badge',
  status: 'mining',
  platform: 'twitch',
  tier: 'Tier 1',
  sessionMined: 0.125,
  sessionSeconds: 1800,
  miningRate: 0.25,
  currentDailyDuration: 7200,
  dailyLimitSeconds: 28_800,
  nextRateIncrease: null,
  pendingReward: null,
};
