// The chaos run the platform suites share (docs/platforms.md#chaos-runs): 50 live streamers watched by one
// adapter for 10 minutes of simulated time (the clock is faked, Date only; every poll round is the adapter's
// poll interval later), the platform's fake in its worst documented modes. Some streams really end on the
// way; a session "ends" when the adapter reports it offline (as the engine hears it), and then it is unwatched
// (as the engine does). What is returned is what the adapter told each session and when, in rounds.
import { vi } from 'vitest';
import type { LiveStatus, PlatformAccountRef } from '../../src/platforms/adapter.ts';

export const CHAOS_STREAMERS = 50;
export const CHAOS_SIMULATED_MS = 10 * 60_000;

export interface ChaosAdapter {
  watch(account: PlatformAccountRef, onChange: (status: LiveStatus) => void): () => void;
  pollNow(): Promise<void>;
}

export interface ChaosRig {
  adapter: ChaosAdapter;
  accounts: PlatformAccountRef[];
  pollIntervalMs: number;
  /** Ends streamer i's stream at the platform (its fake). */
  endStream(i: number): void;
  /** The faults of one round (never more than `maxFaultyInARow` rounds in a row): a name for the log. */
  fault(round: number, random: () => number): string | Promise<string>;
  /** Clears what `fault` set (the fake's queued HTTP faults are cleared by the run). */
  calm(): void;
  /** The platform's fake (its queued HTTP faults are dropped after each round). */
  fake: { clearFaults(): void };
  /** Rounds in a row a fault may last (below PLATFORM_MAX_FAILED_POLLS: an unreadable stream ends then). */
  maxFaultyInARow: number;
  /** Called after the watches began, before the first round (what the sessions' starts set off). */
  started?(): Promise<void>;
  /** Called after each round (a check the platform runs periodically). */
  afterRound?(round: number): Promise<void>;
  /** Rounds after the run, still in simulated time, once `begin` has changed the platform (no faults). */
  tail?: { rounds: number; begin(): void };
}

export interface ChaosResult {
  rounds: number;
  /** Per streamer: the round its stream ended at the platform (null: live to the end). */
  endedAt: Array<number | null>;
  /** Per streamer: the round the adapter reported it offline (null: never). */
  reportedAt: Array<number | null>;
  /** Every report, in order. */
  reports: Array<{ i: number; round: number; status: LiveStatus }>;
  faults: string[];
  unwatch: Array<() => void>;
}

/** A small deterministic generator (mulberry32): a run is the same every time. */
export function seeded(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Runs the rig: a fifth of the streams end at a third of the run, another fifth at two thirds, the rest stay
 * live. Date is faked from the first round (the fakes' timestamps and the adapters' pacing follow it).
 */
export async function runChaos(rig: ChaosRig, seed = 55): Promise<ChaosResult> {
  const rounds = Math.round(CHAOS_SIMULATED_MS / rig.pollIntervalMs);
  const random = seeded(seed);
  const endRound = (i: number) =>
    i % 5 === 0 ? Math.floor(rounds / 3) : i % 5 === 1 ? Math.floor((2 * rounds) / 3) : null;
  const endedAt: Array<number | null> = rig.accounts.map(() => null);
  const reportedAt: Array<number | null> = rig.accounts.map(() => null);
  const reports: ChaosResult['reports'] = [];
  const faults: string[] = [];
  let round = 0;
  const unwatch = rig.accounts.map((account, i) => {
    const stop = rig.adapter.watch(account, (status) => {
      reports.push({ i, round, status });
      if (!status.live && reportedAt[i] === null) {
        reportedAt[i] = round;
        stop();
      }
    });
    return stop;
  });
  await rig.started?.();
  const start = Date.now();
  vi.useFakeTimers({ toFake: ['Date'], now: start });
  try {
    let faultyInARow = 0;
    for (round = 1; round <= rounds; round++) {
      vi.setSystemTime(start + round * rig.pollIntervalMs);
      rig.accounts.forEach((_, i) => {
        if (endRound(i) === round) {
          rig.endStream(i);
          endedAt[i] = round;
        }
      });
      if (faultyInARow < rig.maxFaultyInARow && random() < 0.6) {
        faults.push(`${round}: ${await rig.fault(round, random)}`);
        faultyInARow++;
      } else {
        faultyInARow = 0;
      }
      await rig.adapter.pollNow();
      rig.calm();
      rig.fake.clearFaults();
      await rig.afterRound?.(round);
    }
    if (rig.tail) {
      rig.tail.begin();
      for (; round <= rounds + rig.tail.rounds; round++) {
        vi.setSystemTime(start + round * rig.pollIntervalMs);
        await rig.adapter.pollNow();
      }
    }
  } finally {
    vi.useRealTimers();
  }
  return { rounds, endedAt, reportedAt, reports, faults, unwatch };
}

/** What the acceptance asks of a run, as numbers a test compares (bound: polls after the real end). */
export function judge(result: ChaosResult) {
  const endedWhileLive = result.reports.filter(
    (r) =>
      r.round <= result.rounds &&
      !r.status.live &&
      (result.endedAt[r.i] === null || r.round < result.endedAt[r.i]!),
  );
  const lateOrMissing = result.endedAt.flatMap((ended, i): Array<{ i: number; after: number | null }> => {
    if (ended === null) return [];
    const reported = result.reportedAt[i] ?? null;
    // Polls made since the stream really ended, the one that ended the session included.
    return [{ i, after: reported === null ? null : reported - ended + 1 }];
  });
  return {
    endedWhileLive: endedWhileLive.length,
    ended: lateOrMissing.length,
    /** The most polls since a stream's real end until its session ended (null: one never ended). */
    worstPollsToEnd: lateOrMissing.some((e) => e.after === null)
      ? null
      : Math.max(0, ...lateOrMissing.map((e) => e.after as number)),
  };
}
