// bench:web's gauge of the host's load: the landing page's main thread, traced in Chromium without
// throttling, until the network is idle. The CPU time its tasks took (thread time) against their wall time:
// on a busy host the tasks wait for a core, so the wall time, which Lighthouse's mobile profile multiplies by
// its 4x CPU slowdown, grows with the load while the CPU time does not. The median load's trace is kept
// (DevTools' Performance panel opens it); BENCH_TRACE=detail and BENCH_CPU_PROFILE=1 as for the dashboard.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BrowserContext } from '@strm/testing';
import { mainThreadTasks, startTrace, type TraceEvent, taskTime, traceCategories } from './trace.ts';

const tracesDir = fileURLToPath(new URL('../../../.test-reports/landing-traces/', import.meta.url));

/** Median over `runs` page loads of the main thread's task time: CPU and wall, in ms; the median load's trace. */
export async function landingMainThread(
  browser: BrowserContext,
  url: string,
  runs = 5,
): Promise<{ cpuMs: number; wallMs: number; traceFile: string }> {
  const loads: Array<{ cpuMs: number; wallMs: number; events: TraceEvent[] }> = [];
  for (let run = 0; run < runs; run++) {
    const page = await browser.newPage();
    const trace = await startTrace(browser, page, traceCategories());
    await page.goto(url, { waitUntil: 'networkidle' });
    const events = await trace.stop();
    await page.close();
    const tasks = mainThreadTasks(events);
    if (tasks.length === 0) throw new Error("the trace has no task of the page's main thread");
    loads.push({ ...taskTime(tasks), events });
  }
  const byCpu = [...loads].sort((a, b) => a.cpuMs - b.cpuMs);
  const middle = byCpu[Math.floor(byCpu.length / 2)]!;
  const wall = loads.map((l) => l.wallMs).sort((a, b) => a - b)[Math.floor(loads.length / 2)]!;
  await mkdir(tracesDir, { recursive: true });
  const traceFile = join(tracesDir, `${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
  await writeFile(traceFile, JSON.stringify({ traceEvents: middle.events }));
  return { cpuMs: middle.cpuMs, wallMs: wall, traceFile };
}
