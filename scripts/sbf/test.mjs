#!/usr/bin/env node
// The SBF suite: builds target/deploy/mining.so (a no-op when it is up to date) and runs the program's
// SBF tests against it in LiteSVM (packages/mining-client/sbf), compute units per instruction included.
// Without the SBF toolchain it prints one line and succeeds, except under CI (CI=true), which sets the
// toolchain up (about 15 minutes the first time on 2 cores; later runs reuse ~/.cache/strm-sbf) and builds
// the local chain's SBF engine (`./run sbf engine`) for the TS suites.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));
const run = (cmd, args, env = {}) =>
  spawnSync(cmd, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } }).status ?? 1;

const ready = spawnSync('bash', ['scripts/sbf/sbf.sh', 'status'], { cwd: root }).status === 0;
const ci = process.env.CI === 'true' || process.env.CI === '1';
if (!ready && !ci) {
  console.log(
    'SBF suite skipped: the SBF toolchain is not set up here (`./run sbf` sets it up once, about 15 min; scripts/sbf/README.md).',
  );
  process.exit(0);
}

if (run('bash', ['scripts/sbf/sbf.sh', 'build']) !== 0) process.exit(1);
const suite = run('pnpm', ['--filter', '@strm/mining-client', 'test:sbf'], {
  STRM_MINING_SO: join(root, 'target', 'deploy', 'mining.so'),
});
if (suite !== 0) process.exit(suite);
// Under CI also Debian's rustc and the local chain's SBF engine (chain/svm), so that the TS suites run the
// chain's suites and the API's engine suites on mining.so (STRM_TEST_CHAIN_PROGRAM, scripts/with-local-chain.mjs).
process.exit(ci ? run('bash', ['scripts/sbf/sbf.sh', 'engine']) : 0);
