#!/usr/bin/env node
// Runs cargo with the project's shared target directory (outside the clone), so CI and later
// sessions reuse the long first build of the agave crates. `cargo test` output is also kept in
// .test-reports/ for the closing summary. After a build of the local chain, this clone's own build of it is
// copied to <clone>/target/local-chain/strm-local-chain, which is what the local chain launcher runs.
import { spawn, spawnSync } from 'node:child_process';
import { copyFileSync, createWriteStream, existsSync, mkdirSync, renameSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const args = process.argv.slice(2);
const env = { ...process.env };
env.CARGO_TARGET_DIR ??= join(homedir(), '.cache', 'strm-target');

// agave's runtime pulls in `openssl` with its `vendored` feature, whose build script compiles OpenSSL from
// source: 236 s of a 389 s cold build of the local chain on 2 cores (cargo build --timings). The system's
// OpenSSL (Debian's libssl-dev, found by pkg-config) serves the same API; the vendored one stays the fallback
// where it is absent. The choice is in openssl-sys's fingerprint, so a machine keeps one build of it.
if (env.OPENSSL_NO_VENDOR === undefined && spawnSync('pkg-config', ['--exists', 'openssl']).status === 0) {
  env.OPENSSL_NO_VENDOR = '1';
}

// STRM_CLIPPY=1 (the test command sets it for all its steps): the workspace's own crates are compiled by
// clippy-driver, which runs clippy's lints (-D warnings, as `cargo clippy -- -D warnings`) as it builds them, so
// the test build is also the lint, instead of `cargo clippy` checking every agave crate a second time (8 minutes
// cold). The dependencies are the same either way; cargo keeps the workspace's crates built this way apart from a
// plain build's (the wrapper is in their metadata hash), so neither rebuilds the other's. CLIPPY_ARGS is in
// clippy-driver's dep-info: every build with STRM_CLIPPY=1 passes the same, or the workspace's crates rebuild.
if (env.STRM_CLIPPY === '1') {
  const sysroot = spawnSync(env.RUSTC ?? 'rustc', ['--print', 'sysroot'], {
    encoding: 'utf8',
  }).stdout?.trim();
  const driver = sysroot ? join(sysroot, 'bin', 'clippy-driver') : '';
  if (!driver || !existsSync(driver)) {
    console.error(
      `STRM_CLIPPY=1 needs clippy (no ${driver || 'rustc sysroot'}): rustup component add clippy`,
    );
    process.exit(1);
  }
  env.RUSTC_WORKSPACE_WRAPPER = driver;
  // How `cargo clippy -- -D warnings` passes its arguments to clippy-driver.
  env.CLIPPY_ARGS = '-D__CLIPPY_HACKERY__warnings__CLIPPY_HACKERY__';
}

// The local chain's build and the copy of it this clone runs (keepOwnLocalChain) happen under one lock shared by
// every clone, so no other clone can relink the shared binary in between (util-linux's flock; without it, the
// copy checks for a relink instead).
const buildsLocalChain = args[0] === 'build' && (args.includes('strm-local-chain') || !args.includes('-p'));
if (buildsLocalChain && !env.STRM_LOCAL_CHAIN_LOCKED) {
  mkdirSync(env.CARGO_TARGET_DIR, { recursive: true });
  const locked = spawnSync(
    'flock',
    [
      join(env.CARGO_TARGET_DIR, '.strm-local-chain.lock'),
      process.execPath,
      fileURLToPath(import.meta.url),
      ...args,
    ],
    { stdio: 'inherit', env: { ...env, STRM_LOCAL_CHAIN_LOCKED: '1' } },
  );
  if (!locked.error) process.exit(locked.status ?? 1);
}

// Compiling is minutes of silence that look like a hang: say what is built and how long it takes, once,
// before cargo's output (a cold target dir), or after a few quiet seconds (a new clone compiles the
// workspace's own crates against the cached agave and Anchor ones).
const compiles = ['build', 'test', 'run'].includes(args[0]);
const what = args.includes('strm-local-chain')
  ? 'the local Solana chain (agave runtime + the mining program)'
  : 'the Rust workspace (agave runtime, Anchor, the mining program, the local chain)';
const profile = args.includes('--release') ? 'release' : 'debug';
let slowNotice;
if (compiles && !existsSync(join(env.CARGO_TARGET_DIR, profile, '.fingerprint'))) {
  console.error(
    `First build of ${what} into ${env.CARGO_TARGET_DIR}: ${
      args.includes('strm-local-chain') ? 'about 4 minutes' : 'about 10 minutes'
    } on 2 cores; later builds take seconds.`,
  );
} else if (compiles && args.includes('-q')) {
  slowNotice = setTimeout(
    () => console.error(`Compiling ${what}: a few minutes in a new clone, seconds afterwards.`),
    5000,
  );
}

const child = spawn('cargo', args, { cwd: root, env, stdio: ['inherit', 'pipe', 'inherit'] });
let report;
if (args[0] === 'test') {
  mkdirSync(join(root, '.test-reports'), { recursive: true });
  report = createWriteStream(join(root, '.test-reports', 'rust.cargo.txt'));
}
child.stdout.on('data', (chunk) => {
  process.stdout.write(chunk);
  report?.write(chunk);
});
child.on('exit', (code) => {
  clearTimeout(slowNotice);
  report?.end();
  if (code === 0 && buildsLocalChain) process.exit(keepOwnLocalChain(Date.now()));
  process.exit(code ?? 1);
});

/**
 * Every clone and worktree builds into the one shared target dir, where cargo links the local chain to the
 * same <target>/<profile>/strm-local-chain whichever clone built it; a clone that ran that file could run
 * another clone's build, or see it replaced while running. So after its build the clone copies it to its own
 * <clone>/target/local-chain/strm-local-chain (which the launcher runs), still holding the lock its build ran under
 * (without flock: unless another build was linked there since this one ended, else it builds again), to a
 * temporary name renamed into place, so a chain that is starting never sees half a file.
 */
function keepOwnLocalChain(builtAt) {
  const dir = join(env.CARGO_TARGET_DIR, profile);
  const built = join(dir, 'strm-local-chain');
  const destination = join(root, 'target', 'local-chain');
  mkdirSync(destination, { recursive: true });
  const temporary = join(destination, `.strm-local-chain.${process.pid}`);
  if (env.STRM_LOCAL_CHAIN_LOCKED) {
    copyFileSync(built, temporary);
    renameSync(temporary, join(destination, 'strm-local-chain'));
    return 0;
  }
  const copyUnlessRelinked = `const fs = require('node:fs');
    if (fs.statSync(${JSON.stringify(built)}).ctimeMs > ${builtAt}) process.exit(3);
    fs.copyFileSync(${JSON.stringify(built)}, ${JSON.stringify(temporary)});`;
  for (let attempt = 1; attempt <= 3; attempt++) {
    let copy = spawnSync('flock', [join(dir, '.cargo-lock'), process.execPath, '-e', copyUnlessRelinked], {
      stdio: 'inherit',
    });
    // Without util-linux's flock (not on every machine), the same copy without the lock.
    if (copy.error) copy = spawnSync(process.execPath, ['-e', copyUnlessRelinked], { stdio: 'inherit' });
    if (copy.status === 0) {
      renameSync(temporary, join(destination, 'strm-local-chain'));
      return 0;
    }
    if (copy.status !== 3) return copy.status ?? 1;
    console.error('Another clone built the local chain meanwhile; building this clone’s again.');
    const again = spawnSync('cargo', args, { cwd: root, env, stdio: 'inherit' });
    if (again.status !== 0) return again.status ?? 1;
    builtAt = Date.now();
  }
  console.error('Other clones kept building the local chain; try again.');
  return 1;
}
