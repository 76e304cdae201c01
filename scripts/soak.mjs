#!/usr/bin/env node
// The flake hunt (not part of CI): runs test suites again and again, optionally with the other core kept
// busy, and prints per suite how many runs failed and which tests failed how often.
//   pnpm test:soak [--runs N] [--load] [suite…]     suites: rust sbf chain shared mining-client api web browser
// --runs defaults to 20; --load starts a CPU hog for the duration (Debian's stress-ng when installed, else a
// busy loop in a child process). The suites' own builds are not repeated: build them once first (`pnpm
// test:rust`, `pnpm build`, `./run sbf`). A failed run's output is kept in .soak/<suite>-<run>.log.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const reports = join(root, '.test-reports');
const logs = join(root, '.soak');

/** Each suite: the command, and where its runner reports (a vitest JSON file, or cargo's output). */
const SUITES = {
  rust: { cmd: ['node', 'scripts/cargo.mjs', 'test', '--workspace', '--test', 'mining'], cargo: true },
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
  else if (args[i] in SUITES) chosen.push(args[i]);
  else {
    console.error(`soak: unknown argument ${args[i]}; suites: ${Object.keys(SUITES).join(' ')}`);
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

const hog = load ? startLoad() : undefined;
const stopHog = () => hog?.kill('SIGKILL');
process.on('SIGINT', () => {
  stopHog();
  process.exit(130);
});

const results = [];
try {
  for (const name of chosen) {
    const suite = SUITES[name];
    const row = { name, runs: 0, failures: 0, seconds: [], tests: new Map() };
    results.push(row);
    for (let run = 1; run <= runs; run++) {
      if (suite.report) rmSync(join(reports, suite.report), { force: true });
      const started = performance.now();
      const { code, output } = await runCapturing(suite.cmd, suite.env);
      row.seconds.push((performance.now() - started) / 1000);
      row.runs++;
      const failed = suite.cargo ? cargoFailures(output) : vitestFailures(join(reports, suite.report));
      if (code !== 0 || failed.length > 0) {
        row.failures++;
        const log = join(logs, `${name}-${run}.log`);
        writeFileSync(log, output);
        const names = failed.length > 0 ? failed : [`(exit ${code}, no failed test reported)`];
        for (const test of names) row.tests.set(test, (row.tests.get(test) ?? 0) + 1);
        console.log(`soak ${name} ${run}/${runs}: FAILED (${names.join('; ')}), output in ${log}`);
      } else {
        console.log(`soak ${name} ${run}/${runs}: ok (${row.seconds.at(-1).toFixed(0)} s)`);
      }
    }
  }
} finally {
  stopHog();
}

console.log(`\nSoak: ${runs} runs per suite${load ? ', with the other core busy' : ''}`);
console.log('| suite | runs | failures | median s | failed tests (times) |');
console.log('|---|---|---|---|---|');
for (const r of results) {
  const sorted = [...r.seconds].sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)] ?? 0;
  const tests = [...r.tests].map(([t, n]) => `${t} (${n})`).join('; ') || '—';
  console.log(`| ${r.name} | ${r.runs} | ${r.failures} | ${median.toFixed(0)} | ${tests} |`);
}
process.exit(results.some((r) => r.failures > 0) ? 1 : 0);

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
    for (const t of tests) failed.push(t.fullName ?? t.title);
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
