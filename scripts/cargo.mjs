#!/usr/bin/env node
// Runs cargo with the project's shared target directory (outside the clone), so CI and later
// sessions reuse the long first build of the agave crates.
import { spawnSync } from 'node:child_process';
import { homedir } from 'node:os';
import { join } from 'node:path';

const env = { ...process.env };
env.CARGO_TARGET_DIR ??= join(homedir(), '.cache', 'strm-target');
const result = spawnSync('cargo', process.argv.slice(2), { stdio: 'inherit', env });
process.exit(result.status ?? 1);
