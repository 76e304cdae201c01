// bench:web measures the page on an ordinary machine, not on whatever fast host runs it: Chromium's
// processes go into a kernel CPU group (packages/testing/src/cpu-groups.ts) capped so that Lighthouse's host
// benchmark index, measured in the page, lands near HOST_INDEX.aim (a phone is slower still: Lighthouse's
// mobile profile slows that host down 4x on top). The API, its database and the local chain stay uncapped: they
// are the server, another machine in real life. Calibrated in two steps (a cap, the index measured under it,
// the cap corrected once); the figures it measures print the index of their own runs beside them.
//   BENCH_WEB_HOST=as-is   measure on the host as it is (no cap)
//   BENCH_WEB_HOST_INDEX   the index to aim at (default 1,200)
//   BENCH_WEB_HOST_CORES   a fixed cap in cores instead (comparing two builds alternately under one cap)
import { readlinkSync } from 'node:fs';
import type { BrowserContext } from '@strm/testing';
import { type CpuGroup, cpuGroups } from '@strm/testing/cpu-groups';
import { processTable } from '@strm/testing/processes';
import { pageFunctions } from 'lighthouse/core/lib/page-functions.js';

/** The ordinary host the web app's targets hold on (docs/benchmarks.md#web-app): an index of 1,000-1,400. */
export const HOST_INDEX = { low: 1000, high: 1400, aim: Number(process.env.BENCH_WEB_HOST_INDEX ?? 1200) };
/** A 10 ms enforcement period: a 50 ms task is slowed throughout, not run at full speed then stopped. */
const PERIOD_US = 10_000;
/** Chromium starts processes as it goes (a renderer per site); they join the group this often. */
const ENROL_MS = 50;

/** Lighthouse's own measure (its page function), in a fresh page of `browser`. */
async function oneIndex(browser: BrowserContext): Promise<number> {
  const page = await browser.newPage();
  // Its renderer joins its CPU group first.
  await new Promise((resolve) => setTimeout(resolve, 3 * ENROL_MS));
  try {
    return Math.round(
      (await page.evaluate(`(${pageFunctions.computeBenchmarkIndex.toString()})()`)) as number,
    );
  } finally {
    await page.close();
  }
}

/**
 * Lighthouse's measure of `browser`'s host, the median of three: one reading under a cap strays by a quarter
 * either way (a cap corrected from one such reading put the same build's dashboard at 553 ms and at 1,000 ms).
 */
export async function benchmarkIndex(browser: BrowserContext): Promise<number> {
  const readings: number[] = [];
  for (let i = 0; i < 3; i++) readings.push(await oneIndex(browser));
  return readings.sort((a, b) => a - b)[1]!;
}

/** This process's descendants that run Chromium's executable. */
function chromiumProcesses(): number[] {
  const table = processTable();
  const isChromium = (pid: number) => {
    try {
      return /chrom/.test(readlinkSync(`/proc/${pid}/exe`));
    } catch {
      return false; // Exited, or not ours to read.
    }
  };
  const found: number[] = [];
  const stack = [process.pid];
  while (stack.length) {
    const parent = stack.pop()!;
    for (const p of table.values()) {
      if (p.ppid !== parent) continue;
      if (isChromium(p.pid)) found.push(p.pid);
      stack.push(p.pid);
    }
  }
  return found;
}

export interface OrdinaryHost {
  /** One line for the report: the host as measured, and the cap. */
  readonly description: string;
  /**
   * Measures the index under the cap again and corrects the cap (unless fixed) before a section: the host's
   * own speed drifts by a fifth within minutes, so a cap set once at the start measured a later section at
   * an index of 900 or 1,500. Answers the index the section runs at (for its row).
   */
  recalibrate(): Promise<number>;
  /** The cap now, in cores (1 when there is none). */
  readonly cores: number;
  /** Lifts the cap and removes the group. */
  stop(): void;
}

/**
 * Caps every Chromium this process starts (now and later) so that `browser` measures an index near
 * HOST_INDEX.aim; nothing when the host is already that slow, or BENCH_WEB_HOST=as-is. Throws when the host is
 * faster and no CPU group can be made (root and a writable cgroup CPU controller are needed).
 */
export async function ordinaryHost(browser: BrowserContext): Promise<OrdinaryHost> {
  const uncapped = await benchmarkIndex(browser);
  const none = (why: string): OrdinaryHost => ({
    description: `host benchmark index ${uncapped} (${why}; no CPU cap)`,
    recalibrate: () => benchmarkIndex(browser),
    cores: 1,
    stop() {},
  });
  if (process.env.BENCH_WEB_HOST === 'as-is') return none('BENCH_WEB_HOST=as-is');
  if (uncapped <= HOST_INDEX.high) return none(`at most ${HOST_INDEX.high} already`);
  const groups = cpuGroups();
  if (!groups.ok) {
    throw new Error(
      `This host's benchmark index is ${uncapped}; measuring an ordinary host (${HOST_INDEX.low}-${HOST_INDEX.high}) caps Chromium in a CPU group, which cannot be made here: ${groups.reason}. Run as root, or set BENCH_WEB_HOST=as-is to measure this host as it is.`,
    );
  }
  // A group per Chromium process, all with the same cap: each process runs as on a slower core of its own (a
  // real host runs the browser, GPU and renderer processes side by side), and an idle instance beside takes
  // nothing from the one measuring. A process forked by a member starts in its parent's group, then moves.
  const processGroups = new Map<number, CpuGroup>();
  const fixed = process.env.BENCH_WEB_HOST_CORES ? Number(process.env.BENCH_WEB_HOST_CORES) : undefined;
  let cores = fixed ?? HOST_INDEX.aim / uncapped;
  const enrol = () => {
    const alive = new Set<number>();
    for (const pid of chromiumProcesses()) {
      alive.add(pid);
      if (processGroups.has(pid)) continue;
      const group = groups.create(`strm-bench-web-${process.pid}-${pid}`);
      group.cap(cores, PERIOD_US);
      try {
        group.add(pid);
        processGroups.set(pid, group);
      } catch {
        group.remove(); // Exited meanwhile.
      }
    }
    for (const [pid, group] of processGroups) {
      if (alive.has(pid)) continue;
      try {
        group.remove();
        processGroups.delete(pid);
      } catch {
        // Still leaving: removed on a later pass.
      }
    }
  };
  const capAll = () => {
    for (const group of processGroups.values()) group.cap(cores, PERIOD_US);
  };
  enrol();
  const timer = setInterval(enrol, ENROL_MS);
  timer.unref();
  /** The index under the cap, the cap corrected once towards the aim when it is not fixed. */
  const calibrate = async () => {
    if (fixed !== undefined) return benchmarkIndex(browser);
    const first = await benchmarkIndex(browser);
    cores = Math.min(1, cores * (HOST_INDEX.aim / first));
    capAll();
    return benchmarkIndex(browser);
  };
  const capped = await calibrate();
  return {
    description: `host benchmark index ${uncapped} uncapped; Chromium capped at ${cores.toFixed(2)} of a core: index ${capped} (aim ${HOST_INDEX.aim}, ordinary ${HOST_INDEX.low}-${HOST_INDEX.high})`,
    recalibrate: calibrate,
    get cores() {
      return cores;
    },
    stop() {
      clearInterval(timer);
      for (const group of processGroups.values()) {
        try {
          group.remove();
        } catch {
          // Its processes are still leaving; the kernel refuses to remove a group in use.
        }
      }
    },
  };
}
