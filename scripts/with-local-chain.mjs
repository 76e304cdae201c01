#!/usr/bin/env node
// Builds the local chain once, then runs a command with STRM_LOCAL_CHAIN_BINARY set to this clone's copy of
// it (scripts/cargo.mjs), so the test files that start a chain run that build instead of each asking cargo
// whether it is up to date: a no-op build is seconds of cargo's fingerprint checks, one at a time under the
// chain's lock, and a file running beside others would wait for them (or, in a new clone, for the whole
// build) inside its setup's time limit.
//   node scripts/with-local-chain.mjs turbo run test …
// A STRM_LOCAL_CHAIN_BINARY already set (a prebuilt chain) is kept and nothing is built. Nor is anything built
// in a step the test command runs beside others (STRM_BESIDE=1, scripts/test-summary.mjs): the steps before
// built it all, and a build here would rewrite what the suites beside it are reading (the chain's binary,
// mining.so, and the outputs turbo restores from its cache, e.g. the API's generated client). Turbo is then told
// to run the named tasks only (--only), not their dependencies.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const [command, ...args] = process.argv.slice(2);
if (!command) {
  console.error('usage: node scripts/with-local-chain.mjs <command> [args…]');
  process.exit(2);
}

const env = { ...process.env };
const beside = env.STRM_BESIDE === '1';
const ownChain = join(root, 'target', 'local-chain', 'strm-local-chain');
if (!env.STRM_LOCAL_CHAIN_BINARY && beside) {
  if (!existsSync(ownChain)) {
    console.error(`${ownChain} is not built: the test command builds it before its lanes (pnpm test:rust)`);
    process.exit(1);
  }
  env.STRM_LOCAL_CHAIN_BINARY = ownChain;
}
if (!env.STRM_LOCAL_CHAIN_BINARY) {
  const build = spawnSync(
    process.execPath,
    [join(root, 'scripts', 'cargo.mjs'), 'build', '-q', '-p', 'strm-local-chain'],
    { cwd: root, stdio: ['ignore', 'inherit', 'inherit'] },
  );
  if (build.status !== 0) {
    console.error('building the local chain (cargo build -p strm-local-chain) failed');
    process.exit(build.status ?? 1);
  }
  env.STRM_LOCAL_CHAIN_BINARY = ownChain;
}
// The suites run the native mining program unless asked otherwise (STRM_LOCAL_CHAIN_PROGRAM=sbf runs its SBF
// build, chain/ts/sbf.ts): the API processes they start would otherwise take the SBF build wherever
// `./run sbf rust` has been run, as `./run start` does, and build its engine inside a test's time limit.
env.STRM_LOCAL_CHAIN_PROGRAM ??= 'native';
// The suites that check the program itself (chain/test's, the API's engine-rest, engine-rewards and
// engine-sessions) run on STRM_TEST_CHAIN_PROGRAM's: under CI `auto`, i.e. on mining.so wherever the SBF
// toolchain and Debian's rustc are set up (CI's test:sbf sets them up), instead of the native program.
const ci = env.CI === 'true' || env.CI === '1';
if (ci) env.STRM_TEST_CHAIN_PROGRAM ??= 'auto';
const suites = env.STRM_TEST_CHAIN_PROGRAM || env.STRM_LOCAL_CHAIN_PROGRAM;
const sbf = (command, stdio = 'ignore') =>
  spawnSync('bash', [join(root, 'scripts', 'sbf', 'sbf.sh'), command], { cwd: root, stdio }).status;
const onSbf = suites === 'sbf' || (suites === 'auto' && sbf('status') === 0 && sbf('rust-status') === 0);
if (onSbf && !beside) {
  // Built here, as the chain is: the chains the suites start then build nothing (STRM_LOCAL_CHAIN_BINARY).
  for (const command of ['build', 'engine']) {
    const status = sbf(command, ['ignore', 'inherit', 'inherit']);
    if (status !== 0) process.exit(status ?? 1);
  }
}

// LOCAL_CHAIN=agave: the suites' chains are agave's test validator (chain/ts/agave.ts), built here too, and
// mining.so with it; beside other steps it must already be built (the reference lane's first step builds it).
if (env.LOCAL_CHAIN === 'agave' && !env.STRM_AGAVE_VALIDATOR_BINARY) {
  const agave = join(root, 'scripts', 'agave', 'build.sh');
  if (!beside) {
    const build = spawnSync('bash', [agave, 'build'], { cwd: root, stdio: ['ignore', 'inherit', 'inherit'] });
    if (build.status !== 0) process.exit(build.status ?? 1);
  }
  const binary = spawnSync('bash', [agave, 'path'], { cwd: root, encoding: 'utf8' }).stdout.trim();
  if (!existsSync(binary)) {
    console.error(`${binary} is not built: scripts/agave/build.sh builds it`);
    process.exit(1);
  }
  env.STRM_AGAVE_VALIDATOR_BINARY = binary;
}

const only = beside && command === 'turbo' ? ['--only'] : [];
const run = spawnSync(command, [...args, ...only], { cwd: root, env, stdio: 'inherit' });
if (run.error) console.error(`${command}: ${run.error.message}`);
process.exit(run.status ?? 1);
