#!/usr/bin/env node
// The API's structure as docs/architecture.md#the-apis-structure states it, checked over the code. Fails
// (exit 1, one `file:line: what` per finding) when:
//   - a file imports from a layer above its own (LAYERS, written once here, top first);
//   - a file other than the streamer repository reads or writes Streamer rows through Prisma's model API, or
//     writes them in SQL outside the statements that move an amount to or from a pending reward at once.
//   node scripts/check-layers.mjs            check the clone this script is in
//   node scripts/check-layers.mjs <dir>      check another work tree
import { existsSync, readFileSync } from 'node:fs';
import { join, posix, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { repositoryFiles } from './check-references.mjs';

const SRC = 'apps/api/src/';
/**
 * The API's layers, top first: a file may import from its own layer and those below. A name is a file or a
 * folder under apps/api/src.
 */
export const LAYERS = [
  ['main.ts'],
  ['server.ts'],
  ['app.ts', 'cli.ts'],
  ['routes', 'socket'],
  ['http'],
  ['services'],
  ['deps.ts'],
  ['platforms', 'cluster'],
  ['db', 'rpc', 'supervisor.ts'],
  [
    'instance-lock.ts',
    'lifecycle.ts',
    'observability',
    'config.ts',
    'config-values.ts',
    'oauth-platforms-config.ts',
  ],
  ['proc.ts', 'clock.ts', 'errors.ts', 'heap.ts', 'logger.ts', 'paths.ts', 'generated'],
];
/** The only module that touches Streamer rows through Prisma. */
export const STREAMER_REPOSITORY = `${SRC}db/streamer-repository.ts`;
/**
 * Statements that credit or debit a pending reward in the same SQL statement as the claim or session that
 * moves the amount (so exactly once): they stay with that claim or session.
 */
export const PENDING_REWARD_STATEMENTS = new Set([
  `${SRC}services/rewards/claims.ts`,
  `${SRC}services/mining/store.ts`,
  `${SRC}services/rewards/reconciler.ts`,
  `${SRC}services/rewards/unrecorded-payouts.ts`,
]);

/** The layer index of a path under apps/api/src (undefined: not in any layer). */
export function layerOf(path) {
  const rest = path.slice(SRC.length);
  const top = rest.split('/')[0];
  const index = LAYERS.findIndex((names) => names.includes(top));
  return index < 0 ? undefined : index;
}

/** The relative imports of a TypeScript text, with their lines (`import … from './x.ts'`, `import('./x.ts')`). */
export function importsOf(text) {
  const found = [];
  for (const [index, line] of text.split('\n').entries()) {
    for (const m of line.matchAll(/(?:\bfrom\s+|\bimport\s*\(\s*|^\s*import\s+)['"](\.{1,2}\/[^'"]+)['"]/g)) {
      found.push({ line: index + 1, target: m[1] });
    }
  }
  return found;
}

/** Every finding of the API's sources under `root`: `{ file, line, what }`. */
export function checkLayers(root) {
  const files = repositoryFiles(root).filter(
    (f) => f.startsWith(SRC) && /\.tsx?$/.test(f) && !/\.test\.tsx?$/.test(f) && existsSync(join(root, f)),
  );
  const findings = [];
  for (const file of files) {
    if (file.startsWith(`${SRC}generated/`)) continue;
    const text = readFileSync(join(root, file), 'utf8');
    const own = layerOf(file);
    if (own === undefined) {
      findings.push({ file, line: 1, what: 'is in no layer (add its file or folder to LAYERS)' });
      continue;
    }
    for (const { line, target } of importsOf(text)) {
      const path = posix.join(posix.dirname(file), target);
      if (!path.startsWith(SRC)) continue;
      const theirs = layerOf(path);
      if (theirs !== undefined && theirs < own) {
        findings.push({ file, line, what: `imports ${path.slice(SRC.length)}, a layer above its own` });
      }
    }
    if (file === STREAMER_REPOSITORY) continue;
    for (const [index, line] of text.split('\n').entries()) {
      if (/\.streamer\.[a-zA-Z]+\(/.test(line)) {
        findings.push({
          file,
          line: index + 1,
          what: `Streamer rows through Prisma outside ${STREAMER_REPOSITORY}`,
        });
      }
      if (
        /\b(UPDATE|INSERT INTO|DELETE FROM)\s+streamers\b/.test(line) &&
        !PENDING_REWARD_STATEMENTS.has(file)
      ) {
        findings.push({
          file,
          line: index + 1,
          what: `Streamer rows written in SQL outside ${STREAMER_REPOSITORY}`,
        });
      }
    }
  }
  return findings;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const root = resolve(process.argv[2] ?? fileURLToPath(new URL('..', import.meta.url)));
  const findings = checkLayers(root);
  for (const f of findings) console.error(`${f.file}:${f.line}: ${f.what}`);
  if (findings.length > 0) {
    console.error(`\n${findings.length} finding(s) against docs/architecture.md#the-apis-structure.`);
    process.exit(1);
  }
  console.log('Layers: no import runs back up; Streamer rows are the repository’s alone.');
}
