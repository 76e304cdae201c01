#!/usr/bin/env node
// The flake hunt (not part of CI): runs test suites, or single test files, again and again, optionally with
// the other core kept busy, records every run in .soak/runs.jsonl and prints the table of every recorded run:
// suite, runs, failures, the tests that failed, and the cause and fix of each known flake
// (scripts/soak-known.json).
//   pnpm test:soak [--runs N] [--load] [target…]   target: a suite (rust sbf chain shared mining-client api
//                                                   web browser) or suite:file, e.g. api:test/cli.test.ts
//   pnpm test:soak --table                           the table of the runs recorded so far
//   pnpm test:soak --forget                          starts a new record
// --runs defaults to 20; --load starts a CPU hog for the duration (Debian's stress-ng when installed, else a
// busy loop in a child process). The suites' own builds are not repeated: build them once first (`pnpm
// test:rust`, `pnpm build`, `./run sbf`). A failed run's output is kept in .soak/<target>-<run>.log.
import { spawn, spawnSync } from 'node:child_process';
import { appendFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const reports = join(root, '.test-reports');
const logs = join(root, '.soak');
const record = join(logs, 'runs.jsonl');

/** Each suite: the command, and where its runner reports (a vitest JSON file, or cargo's output). */
const SUITES = {
  rust: { cmd: ['node', 'scripts/cargo.mjs', 'test', '--workspace'], cargo: true },
  sbf: {
    cmd: ['pnpm', '--filter', '@strm/mining-client', 'test:sbf'],
    report: 'mining-program-sbf.json',
    env: { STRM_MINING_SO: join(root, 'target', 'deploy', 'mining.so') },
  },
  chain: { cmd: ['pnpm', '--filter', '@strm/local-chain', 'test'], report: 'local-chain.json' },
  shared: { cmd: ['pnpm', '--filter', '@strm/shared', 'test'], report: 'shared.json' },
  'mining-client': { cmd: ['pnpm', '--filter', '@strm/mining-client', 'test'], report: 'mining-client.json' },
  api: { cmd: ['pnpm', '--filter', '@strm/api', 'test'], report: 'api.json' },
  web: { cmd: ['pnpm', '--filter', '@strm/web', 'test'], report: 'web-unit.json' },
  browser: { cmd: ['pnpm', '--filter', '@strm/web', 'test:browser'], report: 'web-browser.json' },
};

const args = process.argv.slice(2);
let runs = 20;
let load = false;
const chosen = [];
for (let i = 0; i < args.length; i++) {
  if (args[i] === '--runs') runs = Number(args[++i]);
  else if (args[i] === '--load') load = true;
  else if (args[i] === '--table') {
    printTable();
    process.exit(0);
  } else if (args[i] === '--forget') {
    rmSync(record, { force: true });
    process.exit(0);
  } else if (target(args[i])) chosen.push(args[i]);
  else {
    console.error(
      `soak: unknown argument ${args[i]}; targets: ${Object.keys(SUITES).join(' ')}, or suite:file`,
    );
    process.exit(2);
  }
}
if (!Number.isInteger(runs) || runs < 1) {
  console.error('soak: --runs takes a whole number above 0');
  process.exit(2);
}
if (chosen.length === 0) chosen.push(...Object.keys(SUITES));
mkdirSync(logs, { recursive: true });
mkdirSync(reports, { recursive: true });

/** A suite, or one file of a vitest suite (`api:test/cli.test.ts`). */
function target(name) {
  const [suite, file] = name.split(/:(.*)/s);
  const s = SUITES[suite];
  if (!s || (file && s.cargo)) return undefined;
  return { ...s, cmd: file ? [...s.cmd, file] : s.cmd };
}

const commit = spawnSync('git', ['rev-parse', '--short', 'HEAD'], {
  cwd: root,
  encoding: 'utf8',
}).stdout.trim();
const hog = load ? startLoad() : undefined;
const stopHog = () => hog?.kill('SIGKILL');
process.on('SIGINT', () => {
  stopHog();
  process.exit(130);
});

let anyFailed = false;
try {
  for (const name of chosen) {
    const suite = target(name);
    const safe = name.replace(/[^\w.-]+/g, '_');
    for (let run = 1; run <= runs; run++) {
      if (suite.report) rmSync(join(reports, suite.report), { force: true });
      const started = performance.now();
      const { code, output } = await runCapturing(suite.cmd, suite.env);
      const seconds = (performance.now() - started) / 1000;
      const failed = suite.cargo ? cargoFailures(output) : vitestFailures(join(reports, suite.report));
      const ok = code === 0 && failed.length === 0;
      const names = ok ? [] : failed.length > 0 ? failed : [`(exit ${code}, no failed test reported)`];
      appendFileSync(
        record,
        `${JSON.stringify({ target: name, ok, seconds, failed: names, load, commit, at: new Date().toISOString() })}\n`,
      );
      if (ok) {
        console.log(`soak ${name} ${run}/${runs}: ok (${seconds.toFixed(0)} s)`);
        continue;
      }
      anyFailed = true;
      const log = join(logs, `${safe}-${run}.log`);
      writeFileSync(log, output);
      console.log(`soak ${name} ${run}/${runs}: FAILED (${names.join('; ')}), output in ${log}`);
    }
  }
} finally {
  stopHog();
}
printTable();
process.exit(anyFailed ? 1 : 0);

/** Every recorded run, per target: runs, failures, median time, and each failed test with its known cause. */
function printTable() {
  if (!existsSync(record)) {
    console.log('soak: no runs recorded');
    return;
  }
  const known = JSON.parse(readFileSync(join(root, 'scripts', 'soak-known.json'), 'utf8')).flakes;
  const rows = new Map();
  for (const line of readFileSync(record, 'utf8').split('\n').filter(Boolean)) {
    const run = JSON.parse(line);
    const row = rows.get(run.target) ?? { runs: 0, failures: 0, loaded: 0, seconds: [], tests: new Map() };
    rows.set(run.target, row);
    row.runs++;
    row.loaded += run.load ? 1 : 0;
    row.seconds.push(run.seconds);
    if (run.ok) continue;
    row.failures++;
    for (const t of run.failed) row.tests.set(t, [...(row.tests.get(t) ?? []), run.commit]);
  }
  console.log('\n| suite | runs | failures | median s | failed test (times, at commits) | cause | fix |');
  console.log('|---|---|---|---|---|---|---|');
  for (const [name, r] of rows) {
    const sorted = [...r.seconds].sort((a, b) => a - b);
    const median = sorted[Math.floor(sorted.length / 2)].toFixed(0);
    const runsText = r.loaded ? `${r.runs} (${r.loaded} with --load)` : String(r.runs);
    if (r.tests.size === 0) console.log(`| ${name} | ${runsText} | 0 | ${median} | — | | |`);
    for (const [test, commits] of r.tests) {
      // A known flake with an `error` is that test failing with that error; one without, with any.
      const flake =
        known.find((k) => k.error && test.includes(k.test) && test.includes(k.error)) ??
        known.find((k) => !k.error && test.includes(k.test));
      const where = [...new Set(commits)].join(', ');
      console.log(
        `| ${name} | ${runsText} | ${r.failures} | ${median} | ${test} (${commits.length}, at ${where}) | ${flake?.cause ?? 'not investigated'} | ${flake?.fix ?? ''} |`,
      );
    }
  }
}

function runCapturing([cmd, ...rest], env = {}) {
  return new Promise((resolve) => {
    const child = spawn(cmd, rest, { cwd: root, env: { ...process.env, ...env, FORCE_COLOR: '0' } });
    let output = '';
    child.stdout.on('data', (c) => {
      output += c;
    });
    child.stderr.on('data', (c) => {
      output += c;
    });
    child.on('close', (code) => resolve({ code: code ?? 1, output }));
  });
}

function cargoFailures(output) {
  return [...output.matchAll(/^test (\S+) \.\.\. FAILED$/gm)].map((m) => m[1]);
}

function vitestFailures(file) {
  if (!existsSync(file)) return [];
  const report = JSON.parse(readFileSync(file, 'utf8'));
  const failed = [];
  for (const f of report.testResults ?? []) {
    const tests = (f.assertionResults ?? []).filter((t) => t.status === 'failed');
    // The test's name and its error's first lines: one test can fail for more than one cause.
    for (const t of tests) {
      const lines = (t.failureMessages?.[0] ?? '').split('\n').filter((l) => l.trim() !== '');
      const error = lines.slice(0, 2).join(' / ').slice(0, 240);
      failed.push(error ? `${t.fullName ?? t.title} — ${error}` : (t.fullName ?? t.title));
    }
    // A file that failed outside its tests (a hook, an import).
    if (tests.length === 0 && f.status === 'failed') failed.push(`${f.name.replace(root, '')} (file)`);
  }
  return failed;
}

/** One process keeping a core busy: stress-ng when installed, else a busy loop. */
function startLoad() {
  const stressNg = spawnSync('sh', ['-c', 'command -v stress-ng'], { encoding: 'utf8' }).stdout.trim();
  console.log(`soak: load on the other core from ${stressNg ? 'stress-ng --cpu 1' : 'a busy loop'}`);
  return stressNg
    ? spawn(stressNg, ['--cpu', '1', '--quiet'], { stdio: 'ignore' })
    : spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' });
}
