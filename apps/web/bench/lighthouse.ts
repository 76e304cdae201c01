// Lighthouse (npm `lighthouse`) on the landing page of the started product, mobile and desktop profiles, in
// Debian's Chromium with the project's flags. Prints the four category scores, FCP, LCP, TBT, CLS and the
// JavaScript transferred (compressed, as served) of the median run by performance score; keeps every HTML
// report in a folder it names. Returns false when a target is missed.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CHROMIUM_ARGS, freePort } from '@strm/testing';
import lighthouse, { type Flags, type RunnerResult } from 'lighthouse';
import desktopConfig from 'lighthouse/core/config/desktop-config.js';
import { CHROMIUM } from './chromium.ts';

export const TARGETS = {
  /** Lighthouse performance score, mobile and desktop profiles. */
  performance: { mobile: 95, desktop: 100 },
  /** Accessibility, best practices and SEO, both profiles. */
  otherCategories: 100,
  cls: 0.05,
  /** What the landing page downloads before Connect, gzip. */
  landingJsKb: 150,
  /** Dashboard time to interactive, median. */
  dashboardTtiMs: 800,
  /** The landing page's main-thread CPU until the network is idle, unthrottled, median of 5 loads. */
  landingMainThreadCpuMs: 120,
} as const;

const RUNS = Number(process.env.LIGHTHOUSE_RUNS ?? 3);
const reportsRoot = fileURLToPath(new URL('../../../.test-reports/lighthouse/', import.meta.url));

type Profile = 'mobile' | 'desktop';

/** Debian's Chromium listening for DevTools on a free port, with a fresh profile. */
async function startChromium(): Promise<{ port: number; stop(): Promise<void> }> {
  const port = await freePort();
  const profile = await mkdtemp(join(tmpdir(), 'strm-lighthouse-'));
  const child: ChildProcess = spawn(
    CHROMIUM,
    [...CHROMIUM_ARGS, `--remote-debugging-port=${port}`, `--user-data-dir=${profile}`, 'about:blank'],
    { stdio: 'ignore' },
  );
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    child.kill('SIGTERM');
    await exited;
    await rm(profile, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
  };
  // Ready once its DevTools endpoint answers.
  for (let attempt = 0; ; attempt++) {
    try {
      const res = await fetch(`http://127.0.0.1:${port}/json/version`);
      if (res.ok) return { port, stop };
    } catch {
      // not listening yet
    }
    if (child.exitCode !== null || attempt > 300) {
      await stop();
      throw new Error('Chromium did not open its DevTools port');
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

export interface Figures {
  performance: number;
  accessibility: number;
  bestPractices: number;
  seo: number;
  fcpMs: number;
  lcpMs: number;
  tbtMs: number;
  cls: number;
  jsBytes: number;
  /**
   * Lighthouse's measure of the host's CPU speed at the time (higher is faster). Its mobile profile slows
   * the CPU down 4x on top of this, so a busy host reads as a much slower phone than the profile means.
   */
  benchmarkIndex: number;
  /** Audits of the non-performance categories that did not pass (why a score is under 100). */
  failing: string[];
}

function figures(lhr: RunnerResult['lhr']): Figures {
  const score = (id: string) => Math.round((lhr.categories[id]?.score ?? 0) * 100);
  const value = (id: string) => lhr.audits[id]?.numericValue ?? Number.NaN;
  const requests = (lhr.audits['network-requests']?.details as { items?: Array<Record<string, unknown>> })
    ?.items;
  const jsBytes = (requests ?? [])
    .filter((r) => r.resourceType === 'Script')
    .reduce((sum, r) => sum + Number(r.transferSize ?? 0), 0);
  const failing: string[] = [];
  for (const id of ['accessibility', 'best-practices', 'seo']) {
    for (const ref of lhr.categories[id]?.auditRefs ?? []) {
      const audit = lhr.audits[ref.id];
      if (ref.weight > 0 && audit && audit.score !== null && audit.score < 1)
        failing.push(`${id}: ${ref.id}`);
    }
  }
  return {
    performance: score('performance'),
    accessibility: score('accessibility'),
    bestPractices: score('best-practices'),
    seo: score('seo'),
    fcpMs: value('first-contentful-paint'),
    lcpMs: value('largest-contentful-paint'),
    tbtMs: value('total-blocking-time'),
    cls: value('cumulative-layout-shift'),
    jsBytes,
    benchmarkIndex: Math.round(lhr.environment.benchmarkIndex),
    failing,
  };
}

async function run(url: string, profile: Profile, reportPath: string): Promise<Figures> {
  const chromium = await startChromium();
  try {
    const flags: Flags = { port: chromium.port, output: 'html', logLevel: 'error' };
    const result = await lighthouse(url, flags, profile === 'desktop' ? desktopConfig : undefined);
    if (!result) throw new Error('Lighthouse returned no result');
    if (result.lhr.runtimeError) throw new Error(`Lighthouse: ${result.lhr.runtimeError.message}`);
    await writeFile(reportPath, result.report as string);
    return figures(result.lhr);
  } finally {
    await chromium.stop();
  }
}

/**
 * Lighthouse sometimes loses the trace of a load on a capped or loaded host ("Something went wrong with recording
 * the trace", NO_NAVSTART), and says to run it again: up to three attempts (two in a row failed once).
 */
async function runAgainOnLostTrace(attempt: () => Promise<Figures>, attempts = 3): Promise<Figures> {
  for (let i = 1; ; i++) {
    try {
      return await attempt();
    } catch (err) {
      if (i >= attempts) throw err;
    }
  }
}

export interface LighthouseResult {
  /** The median run (by performance score) of each profile. */
  median: Record<Profile, Figures>;
  runs: Record<Profile, number[]>;
  /** Lighthouse's host benchmark index of each run (the host's speed then; higher is faster). */
  benchmarkIndex: Record<Profile, number[]>;
  met: boolean;
}

/** Runs the profiles, prints the figures and where the reports are, and whether every target is met. */
export async function lighthouseLanding(origin: string): Promise<LighthouseResult> {
  const dir = join(reportsRoot, new Date().toISOString().replace(/[:.]/g, '-'));
  await mkdir(dir, { recursive: true });
  let met = true;
  const rows: string[] = [];
  const median = {} as Record<Profile, Figures>;
  const scores = {} as Record<Profile, number[]>;
  const indexes = {} as Record<Profile, number[]>;
  for (const profile of ['mobile', 'desktop'] as const) {
    const runs: Figures[] = [];
    for (let i = 1; i <= RUNS; i++) {
      const report = join(dir, `${profile}-${i}.html`);
      runs.push(await runAgainOnLostTrace(() => run(`${origin}/`, profile, report)));
    }
    const sorted = [...runs].sort((a, b) => a.performance - b.performance);
    const f = sorted[Math.floor(sorted.length / 2)]!;
    median[profile] = f;
    scores[profile] = runs.map((r) => r.performance);
    indexes[profile] = runs.map((r) => r.benchmarkIndex);
    const misses = [
      f.performance < TARGETS.performance[profile] &&
        `performance ${f.performance} < ${TARGETS.performance[profile]}`,
      f.accessibility < TARGETS.otherCategories && `accessibility ${f.accessibility}`,
      f.bestPractices < TARGETS.otherCategories && `best practices ${f.bestPractices}`,
      f.seo < TARGETS.otherCategories && `SEO ${f.seo}`,
      !(f.cls < TARGETS.cls) && `CLS ${f.cls.toFixed(3)} ≥ ${TARGETS.cls}`,
    ].filter(Boolean);
    if (misses.length) met = false;
    rows.push(
      `  ${profile.padEnd(7)}  performance ${f.performance} (runs: ${runs.map((r) => r.performance).join(', ')}), accessibility ${f.accessibility}, best practices ${f.bestPractices}, SEO ${f.seo}; FCP ${Math.round(f.fcpMs)} ms, LCP ${Math.round(f.lcpMs)} ms, TBT ${Math.round(f.tbtMs)} ms, CLS ${f.cls.toFixed(3)}, JavaScript ${(f.jsBytes / 1024).toFixed(1)} KB transferred, host benchmark index ${runs.map((r) => r.benchmarkIndex).join(', ')} — ${misses.length ? `NOT met: ${misses.join('; ')}` : 'targets met'}`,
    );
    for (const audit of new Set(runs.flatMap((r) => r.failing)))
      rows.push(`           failing audit: ${audit}`);
    console.log(rows.splice(0).join('\n'));
  }
  console.log(`  HTML reports: ${dir}`);
  return { median, runs: scores, benchmarkIndex: indexes, met };
}
