// Every background loop of the API runs through here: a failed run is caught, logged (once when it starts
// failing, then at most once a minute, and once when it recovers), counted in /metrics, and retried with
// back-off. Nothing a loop throws can reach the process: a database or chain outage makes loops fail, never
// the API exit.
import type { Logger } from '../logger.ts';
import type { Metrics } from './metrics.ts';

export interface BackgroundLoopOptions {
  /** The loop's name in logs and metrics (`loop` label). */
  name: string;
  /** Between successful runs. */
  intervalMs: number;
  run: () => Promise<unknown> | unknown;
  logger: Logger;
  metrics?: Metrics;
  /**
   * Retries after a failure start at `intervalMs` (or `minRetryMs` when smaller) and double up to this
   * (default 10 s, or the interval when it is longer).
   */
  maxBackoffMs?: number;
  minRetryMs?: number;
  /** Run once at once (default: after the first interval). */
  immediate?: boolean;
}

export interface BackgroundLoop {
  /** Runs now (or right after the run in progress), then keeps the schedule. */
  trigger(): void;
  /** Consecutive failed runs (0 while it works). */
  readonly failures: number;
  stop(): Promise<void>;
}

const REPEAT_LOG_MS = 60_000;

export function backgroundLoop(opts: BackgroundLoopOptions): BackgroundLoop {
  // 10 s at most by default: a failing loop notices its dependency's return within 10 s.
  const maxBackoffMs = opts.maxBackoffMs ?? Math.max(opts.intervalMs, 10_000);
  const firstRetryMs = Math.min(opts.intervalMs, opts.minRetryMs ?? opts.intervalMs);
  let failures = 0;
  let lastLoggedAt = -Infinity;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let again = false;
  let stopped = false;
  opts.metrics?.backgroundFailing.set({ loop: opts.name }, 0);

  const schedule = (ms: number) => {
    if (stopped) return;
    clearTimeout(timer);
    timer = setTimeout(start, ms);
    timer.unref();
  };

  const once = async (): Promise<void> => {
    try {
      await opts.run();
      if (failures > 0) {
        opts.logger.info({ loop: opts.name, failures }, 'background loop recovered');
        opts.metrics?.backgroundFailing.set({ loop: opts.name }, 0);
      }
      failures = 0;
      schedule(opts.intervalMs);
    } catch (err) {
      failures++;
      opts.metrics?.backgroundFailures.inc({ loop: opts.name });
      opts.metrics?.backgroundFailing.set({ loop: opts.name }, 1);
      const retryMs = Math.min(maxBackoffMs, firstRetryMs * 2 ** Math.min(failures - 1, 16));
      const now = Date.now();
      if (failures === 1 || now - lastLoggedAt >= REPEAT_LOG_MS) {
        lastLoggedAt = now;
        opts.logger.error({ err, loop: opts.name, failures, retryMs }, 'background loop failed; retrying');
      }
      schedule(retryMs);
    }
  };

  function start() {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    running = once().finally(() => {
      running = undefined;
      if (again && !stopped) {
        again = false;
        start();
      }
    });
  }

  if (opts.immediate) start();
  else schedule(opts.intervalMs);
  return {
    trigger: start,
    get failures() {
      return failures;
    },
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
