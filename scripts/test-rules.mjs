#!/usr/bin/env node
// pnpm test:rules: the Prometheus rules operators load (deploy/prometheus/strm.rules.yml) are valid, and each
// alert fires on its figure and stays silent below it (promtool's unit tests, strm.rules.test.yml). Each test
// group counts as one test in the summary's line (.test-reports/rules.json, in vitest's report shape).
// promtool is Debian's `prometheus` package; ./run test installs it when missing.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const dir = join(root, 'deploy', 'prometheus');
const testFile = 'strm.rules.test.yml';

const run = (args) => {
  const result = spawnSync('promtool', args, { cwd: dir, encoding: 'utf8' });
  if (result.error) {
    console.error(`promtool: ${result.error.message} (Debian: apt-get install prometheus)`);
    process.exit(1);
  }
  process.stdout.write(result.stdout);
  process.stderr.write(result.stderr);
  return result;
};

const checked = run(['check', 'rules', 'strm.rules.yml']);
const tested = checked.status === 0 ? run(['test', 'rules', testFile]) : undefined;
const groups = [...readFileSync(join(dir, testFile), 'utf8').matchAll(/^ {2}- name: (.+)$/gm)].map(
  (m) => m[1],
);
// promtool names each failing group once per failed expectation ("name: <group>,").
const output = `${tested?.stdout ?? ''}${tested?.stderr ?? ''}`;
const failed = tested?.status === 0 ? [] : groups.filter((g) => output.includes(`name: ${g},`));
const numFailedTests =
  tested === undefined ? groups.length : Math.max(failed.length, tested.status === 0 ? 0 : 1);
mkdirSync(join(root, '.test-reports'), { recursive: true });
writeFileSync(
  join(root, '.test-reports', 'rules.json'),
  JSON.stringify({ numPassedTests: groups.length - numFailedTests, numFailedTests, numPendingTests: 0 }),
);
console.log(`Prometheus rules: ${groups.length - numFailedTests} of ${groups.length} test groups passed`);
process.exit(checked.status === 0 && tested?.status === 0 ? 0 : 1);
