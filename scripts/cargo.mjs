#!/usr/bin/env node
// Runs cargo with the project's shared target directory (outside the clone), so CI and later
// sessions reuse the long first build of the agave crates. `cargo test` output is also kept in
// .test-reports/ for the closing summary.
import { spawn } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const args = process.argv.slice(2);
const env = { ...process.env };
env.CARGO_TARGET_DIR ??= join(homedir(), '.cache', 'strm-target');

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
    `First build of ${what} into ${env.CARGO_TARGET_DIR}: about 10 minutes on 2 cores; later builds take seconds.`,
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
  process.exit(code ?? 1);
});
