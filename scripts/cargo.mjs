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

// A cold target dir means compiling the agave and Anchor crates: minutes of silence that look like a hang.
const profile = args.includes('--release') ? 'release' : 'debug';
if (
  ['build', 'test', 'run'].includes(args[0]) &&
  !existsSync(join(env.CARGO_TARGET_DIR, profile, '.fingerprint'))
) {
  const what = args.includes('strm-local-chain')
    ? 'the local Solana chain (agave runtime + the mining program)'
    : 'the Rust workspace (agave runtime, Anchor, the mining program, the local chain)';
  console.error(
    `First build of ${what} into ${env.CARGO_TARGET_DIR}: about 10 minutes on 2 cores; later builds take seconds.`,
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
  report?.end();
  process.exit(code ?? 1);
});
