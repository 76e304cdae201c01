// pnpm bench:web — what the landing page costs and how fast the dashboard is usable, in Debian's Chromium
// against the started product on localhost (built web app served by the API, local chain). Without Chromium it
// installs it as `./run test` does, or says in one line how (bench/chromium.ts).
//  0. Lighthouse (bench/lighthouse.ts) on the landing page, mobile and desktop profiles: the four category
//     scores, LCP, TBT, CLS and the JavaScript transferred; the HTML reports are kept in the folder printed.
//     Beside it (bench/main-thread.ts) the landing page's main-thread CPU time against its wall time.
//  1. Landing page JavaScript: every script the page downloads before Connect is pressed (the entry and
//     the chunks it loads on its own), scrolled to the bottom and until the network is idle,
//     gzip-compressed. Also what pressing Connect then downloads (the wallet).
//  1b. The overlay page (bench/overlay.ts): its scripts and stylesheets, gzip (target ≤ 60 KB).
//  2. Dashboard time to interactive (bench/dashboard.ts): from navigation start of an admitted wallet's page,
//     through Connect and the sign-in, to the tier cards' Activate button being enabled (median of several
//     runs), with the main thread's CPU time until then and the median load's timeline and trace.
// Chromium runs capped to an ordinary host's speed (bench/host.ts: a host benchmark index near 1,200, printed
// with the cap; BENCH_WEB_HOST=as-is measures the host as it is).
// It ends with the table of every figure against its target (markdown, as in docs/benchmarks.md) and exits non-zero
// when it cannot measure a figure or when a target (TARGETS) is missed. Lighthouse's performance figures
// depend on the machine's load: the load average is printed beside them.
import { availableParallelism, loadavg } from 'node:os';
import { gzipSync } from 'node:zlib';
import { Keypair } from '@solana/web3.js';
import { launchChromium } from '../e2e/browser.ts';
import { ensureChromium } from './chromium.ts';
import { type OrdinaryHost, ordinaryHost } from './host.ts';
import { startProduct } from '../e2e/product.ts';
import { admittedWallet, dashboardTti } from './dashboard.ts';
import { lighthouseLanding, TARGETS } from './lighthouse.ts';
import { landingMainThread } from './main-thread.ts';
import { OVERLAY_TARGET_KB, overlayBundle } from './overlay.ts';

const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const TARGET_KB = TARGETS.landingJsKb;
const load = () =>
  `load average ${loadavg()
    .map((x) => x.toFixed(2))
    .join(' ')} on ${availableParallelism()} cores`;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;

/** The summary: figure, measured, target, met (a figure not measured is a miss; null: no target). */
const table: Array<[string, string, string, boolean | null]> = [];
function printTable() {
  const rows = table.map(
    ([figure, measured, target, met]) =>
      `| ${figure} | ${measured} | ${target} | ${met === null ? '' : met ? 'met' : 'NOT met'} |`,
  );
  console.log(
    `\nbench:web (${load()}; ${host?.description ?? 'host not measured'}):\n\n| figure | measured | target | |\n|---|---|---|---|\n${rows.join('\n')}\n`,
  );
  if (table.some(([, , , met]) => met === false)) process.exitCode = 1;
}

if (!ensureChromium()) process.exit(1);
const admin = Keypair.generate();
const chromium = await launchChromium();
const product = await startProduct({ ADMIN_WALLETS: admin.publicKey.toBase58() });
// Every figure below on an ordinary host: Chromium capped to a host benchmark index near 1,200 (bench/host.ts).
let host: OrdinaryHost | undefined;
try {
  host = await ordinaryHost(chromium.browser);
} catch (err) {
  console.log(err instanceof Error ? err.message : String(err));
  await chromium.close();
  await product.stop();
  process.exit(1);
}
console.log(`The host: ${host.description}`);
/** Section 0: Lighthouse. */
async function lighthouse() {
  await host?.recalibrate();
  console.log(`Lighthouse on ${product.url}/ (${load()}):`);
  const lh = await lighthouseLanding(product.url);
  if (!lh.met) process.exitCode = 1;
  console.log(`  (${load()} after)`);
  for (const profile of ['mobile', 'desktop'] as const) {
    const f = lh.median[profile];
    const target = TARGETS.performance[profile];
    table.push([
      `Lighthouse ${profile}: performance`,
      `${f.performance} (runs ${lh.runs[profile].join(', ')}; host benchmark index ${lh.benchmarkIndex[profile].join(', ')}); FCP ${Math.round(f.fcpMs).toLocaleString('en')} ms, LCP ${Math.round(f.lcpMs).toLocaleString('en')} ms, TBT ${Math.round(f.tbtMs)} ms, CLS ${f.cls.toFixed(3)}`,
      target === 100 ? '100' : `≥ ${target}`,
      f.performance >= target,
    ]);
  }
  const others = (['mobile', 'desktop'] as const).map((p) => lh.median[p]);
  table.push([
    'accessibility / best practices / SEO (mobile; desktop)',
    others.map((f) => `${f.accessibility} / ${f.bestPractices} / ${f.seo}`).join('; '),
    `${TARGETS.otherCategories}`,
    others.every((f) => Math.min(f.accessibility, f.bestPractices, f.seo) >= TARGETS.otherCategories),
  ]);
  table.push([
    'CLS (mobile; desktop)',
    others.map((f) => f.cls.toFixed(3)).join('; '),
    `< ${TARGETS.cls}`,
    others.every((f) => f.cls < TARGETS.cls),
  ]);
}

/** Sections 0b to 1b: the landing page's main thread and scripts, the overlay page's. */
async function landingAndOverlay() {
  // How much of the main thread's time on this host is waiting for a core (the load), not the page's work.
  const thread = await landingMainThread(chromium.browser, `${product.url}/`);
  console.log(
    `Landing page main thread, unthrottled: ${Math.round(thread.cpuMs)} ms of CPU in ${Math.round(thread.wallMs)} ms of tasks (${load()}); the median load's trace: ${thread.traceFile}`,
  );
  // The CPU time is the page's work (the target); the wall time beside it grows with the host's load.
  table.push([
    'landing page main thread, unthrottled (median of 5)',
    `${Math.round(thread.cpuMs)} ms CPU in ${Math.round(thread.wallMs)} ms of tasks`,
    `≤ ${TARGETS.landingMainThreadCpuMs} ms CPU`,
    thread.cpuMs <= TARGETS.landingMainThreadCpuMs,
  ]);

  // 1. Landing page JavaScript.
  const page = await chromium.browser.newPage();
  let scripts = new Map<string, { raw: number; gzip: number }>();
  const pending: Promise<void>[] = [];
  page.on('response', (res) => {
    if (res.request().resourceType() !== 'script') return;
    const into = scripts;
    pending.push(
      res.body().then(
        (body) => {
          into.set(new URL(res.url()).pathname, {
            raw: body.length,
            gzip: gzipSync(body, { level: 9 }).length,
          });
        },
        () => {},
      ),
    );
  });
  const settle = async () => {
    await page.waitForLoadState('networkidle');
    await Promise.all(pending);
  };
  const list = (loaded: Map<string, { raw: number; gzip: number }>) => {
    for (const [path, size] of loaded) console.log(`  ${path}  ${kb(size.raw)} raw, ${kb(size.gzip)} gzip`);
    return [...loaded.values()].reduce((s, x) => s + x.gzip, 0);
  };
  await page.goto(product.url, { waitUntil: 'networkidle' });
  // Whatever loads as the visitor scrolls (the sections below the fold, the chart) counts too.
  await page.getByRole('heading', { name: 'Mining Tiers' }).scrollIntoViewIfNeeded();
  await page.locator('article').first().waitFor();
  await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
  await page.getByTestId('earning-chart').locator('rect[data-bar]').first().waitFor();
  await settle();
  if (scripts.size === 0) throw new Error('the landing page loaded no script the bench could read');
  const landing = scripts;
  console.log('Landing page JavaScript before Connect (gzip):');
  const total = list(landing);
  // The entry is the module script index.html names (other chunks may be called index-… too).
  const entryPath = await page.evaluate(
    () => new URL((document.querySelector('script[type="module"]') as HTMLScriptElement).src).pathname,
  );
  const entry = [...landing].filter(([path]) => path === entryPath);
  const met = total <= TARGET_KB * 1024;
  console.log(`  entry chunk: ${kb(entry.reduce((s, [, x]) => s + x.gzip, 0))} gzip`);
  console.log(
    `  total loaded by the landing page: ${kb(total)} gzip (target ≤ ${TARGET_KB} KB: ${met ? 'met' : 'NOT met'})`,
  );
  if (!met) process.exitCode = 1;
  table.push([
    'landing JavaScript before Connect (gzip)',
    `${kb(total)} (entry ${kb(entry.reduce((s, [, x]) => s + x.gzip, 0))})`,
    `≤ ${TARGET_KB} KB`,
    met,
  ]);

  // What Connect adds (no wallet installed: the wallet code loads, then says Phantom is missing).
  scripts = new Map();
  await page.getByRole('button', { name: 'Connect Wallet' }).first().click();
  await page.getByText('Phantom Wallet not found').waitFor();
  await settle();
  console.log('Loaded when Connect is pressed (gzip):');
  console.log(`  total: ${kb(list(scripts))} gzip`);
  await page.close();

  // 1b. The overlay page's bundle.
  const overlay = await overlayBundle(chromium.browser, product.url);
  table.push(['overlay page (gzip)', kb(overlay.bytes), `≤ ${OVERLAY_TARGET_KB} KB`, overlay.met]);
}

/** 2. Dashboard time to interactive (bench/dashboard.ts). */
async function dashboard() {
  const index = (await host?.recalibrate()) ?? Number.NaN;
  console.log(
    `The host before the dashboard's loads: index ${index} under a cap of ${host?.cores.toFixed(2)} of a core`,
  );
  const {
    times,
    seenTimes,
    cpuMs,
    wallMs,
    median: middle,
    traceFile,
  } = await dashboardTti(chromium.browser, product, await admittedWallet(product, admin), RUNS);
  const ms = (x: number) => Math.round(x).toLocaleString('en');
  const tti = median(times);
  const met = tti <= TARGETS.dashboardTtiMs;
  console.log(
    `Dashboard time to interactive: median ${ms(tti)} ms over ${times.length} page loads, navigation start to an enabled Activate button, sign-in included (${times.map(ms).join(', ')}; target ≤ ${TARGETS.dashboardTtiMs} ms: ${met ? 'met' : 'NOT met'}; ${load()})`,
  );
  console.log(
    `  seen enabled by the harness (its round trips added): median ${ms(median(seenTimes))} ms (${seenTimes.map(ms).join(', ')})`,
  );
  console.log(`  main thread until then (median): ${ms(cpuMs)} ms CPU in ${ms(wallMs)} ms of tasks`);
  console.log(`  the median load's trace (DevTools' Performance panel opens it): ${traceFile}`);
  console.log(`  the median load (ms from navigation start):\n    ${middle.timeline.join('\n    ')}`);
  if (!met) process.exitCode = 1;
  table.push([
    'dashboard time to interactive (median)',
    `${ms(tti)} ms over ${times.length} loads (min ${ms(Math.min(...times))}, max ${ms(Math.max(...times))}; host index ${index}); seen by the harness ${ms(median(seenTimes))} ms`,
    `≤ ${TARGETS.dashboardTtiMs} ms`,
    met,
  ]);
  table.push([
    'dashboard main thread until interactive (median)',
    `${ms(cpuMs)} ms CPU in ${ms(wallMs)} ms of tasks`,
    '(the load: the wall time waits for a core)',
    null,
  ]);
}

try {
  // BENCH_ONLY=dashboard: the dashboard's figures alone; BENCH_ONLY=landing: the landing and overlay pages'
  // without Lighthouse; BENCH_ONLY=lighthouse: Lighthouse alone (quicker loops while working on one of them).
  const only = process.env.BENCH_ONLY;
  const runs = (section: 'lighthouse' | 'landing' | 'dashboard') => !only || only === section;
  if (runs('lighthouse')) await lighthouse();
  if (runs('landing')) await landingAndOverlay();
  if (runs('dashboard')) await dashboard();
} catch (err) {
  console.log(`Not measured: ${err instanceof Error ? err.message.split('\n')[0] : err}`);
  table.push(['(the bench stopped)', 'not measured', '', false]);
  process.exitCode = 1;
} finally {
  printTable();
  host.stop();
  await chromium.close();
  await product.stop();
}
