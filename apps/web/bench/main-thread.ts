// bench:web's gauge of the host's load: the landing page's main thread, traced in Chromium without
// throttling, until the network is idle. The CPU time its tasks took (thread time) against their wall time:
// on a busy host the tasks wait for a core, so the wall time, which Lighthouse's mobile profile multiplies by
// its 4x CPU slowdown, grows with the load while the CPU time does not.
import type { BrowserContext } from '@strm/testing';
import { mainThreadTasks, startTrace, taskTime } from './trace.ts';

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
    const trace = await startTrace(browser, page, ['toplevel', 'disabled-by-default-devtools.timeline']);
    await page.goto(url, { waitUntil: 'networkidle' });
    const events = await trace.stop();
    await page.close();
    const tasks = mainThreadTasks(events);
    if (tasks.length === 0) throw new Error("the trace has no task of the page's main thread");
    const time = taskTime(tasks);
    cpu.push(time.cpuMs);
    wall.push(time.wallMs);
  }
  return { cpuMs: median(cpu), wallMs: median(wall) };
}
