#!/usr/bin/env node
// The root test command: runs the given package.json scripts in order, each timed, stops at the first that
// fails, and closes with the time of each step and the one line CI reads, the test counts of every runner
// in this workspace summed (vitest JSON reports and cargo's own summaries, written under .test-reports/ by
// the test scripts).
//   node scripts/test-summary.mjs lint typecheck test:rust …   run these scripts (`pnpm run <name>`)
//   node scripts/test-summary.mjs … test:api,test:chain+test:fuzz  lanes at the same time: test:api, and test:chain
//                                                               then test:fuzz (a comma between lanes, + between the
//                                                               steps of one); each step's output is printed whole
//                                                               when it ends. In a lane, with-local-chain.mjs
//                                                               builds nothing (STRM_BESIDE=1): the steps before
//                                                               the suites' lanes build what they need.
// ./run measures the install before it and passes it in STRM_INSTALL_SECONDS (CPU: STRM_INSTALL_CPU_SECONDS).
import { spawn, spawnSync } from 'node:child_process';
import {
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { homedir, loadavg } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Linux's USER_HZ, the unit of /proc's CPU times: 100 on every architecture Node runs on there. */
const CLOCK_TICKS = 100;
const root = fileURLToPath(new URL('..', import.meta.url));
const dir = join(root, '.test-reports');
/** Where a step run beside others writes its output and its CPU time. */
const stepsDir = join(dir, 'steps');

// One step of a group, run by this script itself so that its CPU time is its own children's:
//   node scripts/test-summary.mjs --step <script> <file the CPU seconds are written to>
if (process.argv[2] === '--step') {
  const [script, cpuFile] = process.argv.slice(3);
  const run = spawnSync(...pnpm(['run', script]), { cwd: root, stdio: 'inherit' });
  if (run.error) console.error(`${script}: ${run.error.message}`);
  writeFileSync(cpuFile, String(childrenCpuSeconds()));
  process.exit(run.status ?? 1);
}

/** What each script is, as the step table names it. */
const LABELS = {
  lint: 'lint (Biome)',
  'test:references': 'references stay in the repo',
  'test:rules': 'Prometheus rules (promtool)',
  'test:cycles': 'import cycles (madge)',
  typecheck: 'typecheck',
  'test:style': 'Rust format',
  'test:rust': 'Rust build, clippy and tests',
  'test:idl': 'IDL check',
  'test:sbf': 'SBF toolchain and suite',
  'test:api': 'API suite',
  'test:units': 'TS unit suites (shared, mining-client, web)',
  'test:chain': 'local chain suite',
  'test:browser': 'browser',
  'build:agave': "agave's validator (build)",
  'test:reference': "reference lane (agave's validator)",
};
const label = (script) => LABELS[script] ?? script;

/** The steps, in order: a script, or lanes of scripts run at the same time (each lane's one after another). */
const groups = process.argv.slice(2).map((arg) => arg.split(',').map((lane) => lane.split('+')));
if (groups.length === 0 || groups.flat(2).some((script) => script === '')) {
  console.error('usage: node scripts/test-summary.mjs <script>|<script>[+<script>…],<script>[+<script>…]…');
  process.exit(2);
}

rmSync(dir, { recursive: true, force: true });
mkdirSync(stepsDir, { recursive: true });

// Turbo's cache outside the clone, as cargo's target dir (scripts/cargo.mjs): a new clone of the same sources
// replays the typecheck and the builds instead of redoing them. A task's key is its package's files, the
// lockfile's versions, tsconfig.base.json (turbo.json) and the keys of the tasks it depends on; tests are
// never cached.
process.env.TURBO_CACHE_DIR ??= join(homedir(), '.cache', 'strm-turbo');
// Every cargo build of the test command (the Rust tests, the IDL tool, the local chain before the suites) with
// clippy-driver (scripts/cargo.mjs): the Rust step's build is the lint, and the later ones reuse its crates.
process.env.STRM_CLIPPY ??= '1';

/** @type {{ label: string, seconds: number, cpu?: number, status: string, lane?: number }[]} */
const steps = [];
const install = Number(process.env.STRM_INSTALL_SECONDS);
if (Number.isFinite(install) && process.env.STRM_INSTALL_SECONDS !== '') {
  const cpu = Number(process.env.STRM_INSTALL_CPU_SECONDS || Number.NaN);
  steps.push({ label: 'install', seconds: install, cpu, status: 'ok' });
}
/** Wall time of the whole command from here: a group counts once, for its longest step. */
let wall = Number.isFinite(install) ? install : 0;

let failed = [];
for (const [i, group] of groups.entries()) {
  const started = performance.now();
  const results = group.length === 1 ? await inTurn(group[0], runAlone) : await runLanes(group);
  wall += (performance.now() - started) / 1000;
  steps.push(...results);
  failed = results.filter((s) => s.status === 'FAILED').map((s) => s.label);
  if (failed.length > 0) {
    for (const rest of groups.slice(i + 1).flat(2))
      steps.push({ label: label(rest), seconds: Number.NaN, status: 'not run' });
    break;
  }
}

/** Steps one after another, each by `run`, up to the first that fails; the rest are 'not run'. */
async function inTurn(scripts, run) {
  const done = [];
  for (const script of scripts) {
    const failedBefore = done.some((s) => s.status !== 'ok');
    done.push(
      failedBefore ? { label: label(script), seconds: Number.NaN, status: 'not run' } : await run(script),
    );
  }
  return done;
}

/** A step on its own: its output as it comes. */
function runAlone(script) {
  console.log(`\n▶ ${label(script)} (pnpm run ${script})`);
  const started = performance.now();
  const cpuBefore = childrenCpuSeconds();
  const run = spawnSync(...pnpm(['run', script]), { cwd: root, stdio: 'inherit' });
  if (run.error) console.error(`${label(script)}: ${run.error.message}`);
  const seconds = (performance.now() - started) / 1000;
  const cpu = childrenCpuSeconds() - cpuBefore;
  return { label: label(script), seconds, cpu, status: run.status === 0 ? 'ok' : 'FAILED' };
}

/**
 * Lanes at the same time, each lane's steps one after another, each step through `--step` (its CPU time its own)
 * with its output kept in .test-reports/steps/ and printed whole when it ends, so that the log reads as if they
 * had run one after another. A step that fails ends its lane but not the others: every result is reported.
 */
async function runLanes(lanes) {
  const names = lanes.map((lane) => lane.map((s) => `${label(s)} (pnpm run ${s})`).join(' then '));
  console.log(`\n▶ at the same time: ${names.join('; and ')}. Each step's output follows when it ends.`);
  const results = await Promise.all(
    lanes.map(async (lane, index) =>
      (await inTurn(lane, (script) => runInLane(script, index + 1))).map((s) => ({ ...s, lane: index + 1 })),
    ),
  );
  return results.flat();
}

function runInLane(script, lane) {
  const name = `${lane}-${script.replaceAll(':', '-')}`;
  const log = join(stepsDir, `${name}.log`);
  const cpuFile = join(stepsDir, `${name}.cpu`);
  const out = openSync(log, 'w');
  const started = performance.now();
  const child = spawn(process.execPath, [fileURLToPath(import.meta.url), '--step', script, cpuFile], {
    cwd: root,
    env: { ...process.env, STRM_BESIDE: '1' },
    stdio: ['ignore', out, out],
  });
  closeSync(out);
  return new Promise((resolve) => {
    let done = false;
    const finish = (code, error) => {
      if (done) return;
      done = true;
      const seconds = (performance.now() - started) / 1000;
      const status = code === 0 ? 'ok' : 'FAILED';
      console.log(`\n▶ ${label(script)} (pnpm run ${script}): ${status} after ${clock(seconds)}`);
      process.stdout.write(readFileSync(log, 'utf8'));
      if (error) console.error(`${label(script)}: ${error.message}`);
      const cpu = existsSync(cpuFile) ? Number(readFileSync(cpuFile, 'utf8')) : Number.NaN;
      resolve({ label: label(script), seconds, cpu, status });
    };
    child.on('error', (error) => finish(null, error));
    child.on('exit', (code) => finish(code));
  });
}

/** m:ss */
function clock(seconds) {
  if (!Number.isFinite(seconds)) return '';
  const s = Math.round(seconds);
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}
const width = Math.max(...steps.map((s) => s.label.length)) + 3;
console.log(`\nStep times (m:ss; CPU: user + system time of the step's processes; load ${loadAverage()})`);
console.log(`  ${'step'.padEnd(width)}  ${'wall'.padStart(6)}  ${'CPU'.padStart(6)}`);
for (const s of steps) {
  const name = s.lane ? `∥${s.lane} ${s.label}` : s.label;
  console.log(
    `  ${name.padEnd(width)}  ${clock(s.seconds).padStart(6)}  ${clock(s.cpu).padStart(6)}  ${s.status}`,
  );
}
const cpu = steps.reduce((total, s) => total + (Number.isFinite(s.cpu) ? s.cpu : 0), 0);
console.log(`  ${'total'.padEnd(width)}  ${clock(wall).padStart(6)}  ${clock(cpu).padStart(6)}`);
if (steps.some((s) => s.lane))
  console.log(
    '  (∥N: lane N of steps run at the same time as the other lanes; the total counts their longest once)',
  );

const tests = countTests();
// The reference lane's own count too: its reports are reference.json (the chain's) and reference-api.json
// (references.json is the reference check's).
const reference = countTests((file) => file === 'reference.json' || file.startsWith('reference-'));
if (reference.passed + reference.failed + reference.skipped > 0)
  console.log(
    `\nOn agave's validator (reference lane): ${reference.passed} passed, ${reference.failed} failed, ${reference.skipped} skipped`,
  );
console.log(`\nTests: ${tests.passed} passed, ${tests.failed} failed, ${tests.skipped} skipped`);
if (failed.length > 0) console.log(`Failed step: ${failed.join(', ')}`);
process.exit(failed.length > 0 || tests.failed > 0 || tests.passed === 0 ? 1 : 0);
/** The pnpm running this script (`pnpm test` sets npm_execpath), else the one on PATH. */
function pnpm(args) {
  const execPath = process.env.npm_execpath;
  return execPath?.includes('pnpm') ? [process.execPath, [execPath, ...args]] : ['pnpm', args];
}

/**
 * CPU seconds (user + system) of this process's children that have ended and been waited for, and of theirs
 * (Linux's cutime and cstime, /proc/self/stat); a daemon that left its parent's tree (an embedded
 * PostgreSQL started by pg_ctl) is not counted. NaN where /proc is not there.
 */
function childrenCpuSeconds() {
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // Fields 16 and 17 of stat(5), counted from the state (field 3) here.
    return (Number(fields[13]) + Number(fields[14])) / CLOCK_TICKS;
  } catch {
    return Number.NaN;
  }
}

/** The 1, 5 and 15 minute load averages when the table is printed: the wall times depend on them. */
function loadAverage() {
  return loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');
}

/** Every report's tests summed, or those of the reports `wanted` names. */
function countTests(wanted = () => true) {
  let passed = 0;
  let failed = 0;
  let skipped = 0;
  if (!existsSync(dir)) return { passed, failed, skipped };
  // Reports only: the browser tests also keep screenshots here, in a folder.
  const reports = readdirSync(dir).filter((f) => f.endsWith('.json') || f.endsWith('.cargo.txt'));
  for (const file of reports.filter(wanted)) {
    const text = readFileSync(join(dir, file), 'utf8');
    if (file.endsWith('.json')) {
      const report = JSON.parse(text);
      passed += report.numPassedTests;
      failed += report.numFailedTests;
      skipped += report.numPendingTests + (report.numTodoTests ?? 0);
    } else {
      for (const m of text.matchAll(/test result: \w+\. (\d+) passed; (\d+) failed; (\d+) ignored/g)) {
        passed += Number(m[1]);
        failed += Number(m[2]);
        skipped += Number(m[3]);
      }
    }
  }
  return { passed, failed, skipped };
}
