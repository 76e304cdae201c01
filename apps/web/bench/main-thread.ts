// bench:web's gauge of the host's load: the landing page's main thread, traced in Chromium without
// throttling, until the network is idle. The CPU time its tasks took (thread time) against their wall time:
// on a busy host the tasks wait for a core, so the wall time, which Lighthouse's mobile profile multiplies by
// its 4x CPU slowdown, grows with the load while the CPU time does not.
import type { BrowserContext } from '@strm/testing';

interface TraceEvent {
  name: string;
  ph: string;
  pid: number;
  tid: number;
  dur?: number;
  tdur?: number;
  args?: { name?: string };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** Median over `runs` page loads of the main thread's task time: CPU and wall, in ms. */
export async function landingMainThread(
  browser: BrowserContext,
  url: string,
  runs = 5,
): Promise<{ cpuMs: number; wallMs: number }> {
  const cpu: number[] = [];
  const wall: number[] = [];
  for (let run = 0; run < runs; run++) {
    const page = await browser.newPage();
    const cdp = await browser.newCDPSession(page);
    const events: TraceEvent[] = [];
    cdp.on('Tracing.dataCollected', (data) => events.push(...(data.value as unknown as TraceEvent[])));
    const complete = new Promise<void>((resolve) => cdp.once('Tracing.tracingComplete', () => resolve()));
    await cdp.send('Tracing.start', {
      traceConfig: {
        includedCategories: ['toplevel', 'disabled-by-default-devtools.timeline', '__metadata'],
      },
      transferMode: 'ReportEvents',
    });
    await page.goto(url, { waitUntil: 'networkidle' });
    await cdp.send('Tracing.end');
    await complete;
    await page.close();
    const main = new Set(
      events
        .filter((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain')
        .map((e) => `${e.pid}:${e.tid}`),
    );
    const tasks = events.filter((e) => e.name === 'RunTask' && e.ph === 'X' && main.has(`${e.pid}:${e.tid}`));
    if (tasks.length === 0) throw new Error("the trace has no task of the page's main thread");
    cpu.push(tasks.reduce((s, e) => s + (e.tdur ?? 0), 0) / 1000);
    wall.push(tasks.reduce((s, e) => s + (e.dur ?? 0), 0) / 1000);
  }
  return { cpuMs: median(cpu), wallMs: median(wall) };
}
