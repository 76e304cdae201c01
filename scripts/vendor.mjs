#!/usr/bin/env node
// The crates in vendor/ are crates.io's release plus the project's patch, nothing else:
//   node scripts/vendor.mjs check   fails unless vendor/<crate> equals the release with vendor/<crate>.patch applied
//   node scripts/vendor.mjs write   rewrites vendor/<crate>.patch from vendor/<crate> (after editing it)
// The release comes from cargo's own download cache (cargo fetches it with `cargo info` when it is missing).
// Upstream's tests, benches, lock file and the .orig manifest are not vendored; that is part of the patch.
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const CRATES = ['solana-program-test', 'solana-invoke'];
const NOT_VENDORED = [
  '.cargo-ok',
  '.cargo_vcs_info.json',
  'Cargo.lock',
  'Cargo.toml.orig',
  'tests',
  'benches',
  'examples',
  'test-program',
];
const mode = process.argv[2] ?? 'check';
if (!['check', 'write'].includes(mode)) {
  console.error('usage: node scripts/vendor.mjs check | write');
  process.exit(2);
}

function versionOf(name) {
  const manifest = readFileSync(join(root, 'vendor', name, 'Cargo.toml'), 'utf8');
  const version = manifest.match(/^\[package\][^[]*?^version = "([^"]+)"/ms)?.[1];
  if (!version) throw new Error(`vendor/${name}/Cargo.toml: no [package] version`);
  return version;
}

function cachedCrate(name, version) {
  const cache = join(process.env.CARGO_HOME ?? join(homedir(), '.cargo'), 'registry', 'cache');
  if (!existsSync(cache)) return undefined;
  for (const registry of readdirSync(cache)) {
    const file = join(cache, registry, `${name}-${version}.crate`);
    if (existsSync(file)) return file;
  }
  return undefined;
}

function upstream(name, version, dir) {
  let file = cachedCrate(name, version);
  if (!file) {
    // A path-patched crate is never downloaded by the build; `cargo info` downloads the release to read it.
    execFileSync('cargo', ['info', '--quiet', `${name}@${version}`], { cwd: tmpdir(), stdio: 'ignore' });
    file = cachedCrate(name, version);
    if (!file) throw new Error(`${name} ${version}: not found on crates.io through cargo`);
  }
  execFileSync('tar', ['xzf', file, '-C', dir]);
  const tree = join(dir, `${name}-${version}`);
  for (const entry of NOT_VENDORED) rmSync(join(tree, entry), { recursive: true, force: true });
  return tree;
}

let failed = false;
for (const name of CRATES) {
  const version = versionOf(name);
  const patchFile = join(root, 'vendor', `${name}.patch`);
  const work = mkdtempSync(join(tmpdir(), 'strm-vendor-'));
  try {
    const a = upstream(name, version, work);
    if (mode === 'write') {
      const b = join(work, 'b');
      cpSync(join(root, 'vendor', name), b, { recursive: true });
      let diff = '';
      try {
        execFileSync('diff', ['-ruN', `${name}-${version}`, 'b'], { cwd: work, encoding: 'utf8' });
      } catch (error) {
        if (error.status !== 1) throw error;
        diff = error.stdout;
      }
      // Paths as `patch -p1` reads them inside the crate.
      diff = diff
        .replaceAll(`--- ${name}-${version}/`, '--- a/')
        .replaceAll('+++ b/', '+++ b/')
        .replace(/^diff -ruN .*$/gm, '')
        .replace(/\n{2,}(?=---)/g, '\n')
        .replace(/^\n/, '')
        .replace(/\t[^\n]*$/gm, '');
      writeFileSync(patchFile, diff);
      console.log(`vendor/${name}.patch written (${name} ${version})`);
      continue;
    }
    execFileSync('patch', ['-s', '-p1', '--no-backup-if-mismatch', '-d', a, '-i', patchFile]);
    try {
      execFileSync('diff', ['-r', a, join(root, 'vendor', name)], { encoding: 'utf8' });
      console.log(`vendor/${name}: crates.io ${name} ${version} + vendor/${name}.patch`);
    } catch (error) {
      failed = true;
      console.error(
        `vendor/${name} is not crates.io ${name} ${version} + vendor/${name}.patch; after changing it on purpose, run node scripts/vendor.mjs write\n${error.stdout ?? error.message}`,
      );
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
process.exit(failed ? 1 : 0);
