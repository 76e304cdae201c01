// Chromium's trace of one page, for bench:web's main-thread figures (bench/main-thread.ts, bench/dashboard.ts).
import type { BrowserContext } from '@strm/testing';

export type Page = Awaited<ReturnType<BrowserContext['newPage']>>;

export interface TraceEvent {
  name: string;
  ph: string;
  pid: number;
  tid: number;
  ts: number;
  dur?: number;
  tdur?: number;
  args?: { name?: string; data?: { url?: string } };
}

/** Starts tracing `page` with `categories`; `stop()` ends it and gives every event. */
export async function startTrace(
  browser: BrowserContext,
  page: Page,
  categories: string[],
): Promise<{ stop(): Promise<TraceEvent[]> }> {
  const cdp = await browser.newCDPSession(page);
  const events: TraceEvent[] = [];
  cdp.on('Tracing.dataCollected', (data) => events.push(...(data.value as unknown as TraceEvent[])));
  const complete = new Promise<void>((resolve) => cdp.once('Tracing.tracingComplete', () => resolve()));
  await cdp.send('Tracing.start', {
    traceConfig: { includedCategories: [...categories, '__metadata'] },
    transferMode: 'ReportEvents',
  });
  return {
    async stop() {
      await cdp.send('Tracing.end');
      await complete;
      return events;
    },
  };
}

/**
 * What a bench traces: the task times alone by default (little added to the page's work);
 * BENCH_TRACE=detail what DevTools' Performance panel records, BENCH_CPU_PROFILE=1 with its JavaScript samples.
 */
export function traceCategories(): string[] {
  const detail = process.env.BENCH_TRACE === 'detail' || Boolean(process.env.BENCH_CPU_PROFILE);
  return [
    'toplevel',
    'disabled-by-default-devtools.timeline',
    'blink.user_timing',
    ...(detail ? ['devtools.timeline', 'v8.execute'] : []),
    ...(process.env.BENCH_CPU_PROFILE ? ['disabled-by-default-v8.cpu_profiler'] : []),
  ];
}

/** The page's main thread (the renderer's CrRendererMain) tells its events by `pid:tid`. */
export function onMainThread(events: TraceEvent[]): (e: TraceEvent) => boolean {
  const main = new Set(
    events
      .filter((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain')
      .map((e) => `${e.pid}:${e.tid}`),
  );
  return (e) => main.has(`${e.pid}:${e.tid}`);
}

/** The main thread's tasks (RunTask events) between `from` and `to` (trace clock, µs). */
export function mainThreadTasks(events: TraceEvent[], from = -Infinity, to = Infinity): TraceEvent[] {
  const main = onMainThread(events);
  return events.filter((e) => e.name === 'RunTask' && e.ph === 'X' && main(e) && e.ts >= from && e.ts <= to);
}

/** CPU (thread time) and wall time of `tasks`, ms. */
export const taskTime = (tasks: TraceEvent[]) => ({
  cpuMs: tasks.reduce((s, e) => s + (e.tdur ?? 0), 0) / 1000,
  wallMs: tasks.reduce((s, e) => s + (e.dur ?? 0), 0) / 1000,
});
