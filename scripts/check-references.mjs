#!/usr/bin/env node
// No reference leaves the repository: a clone must hold everything its files cite. Fails (exit 1, one
// `file:line: what` per finding) when a tracked or untracked, non-ignored file names a path outside the
// clone: a relative path that climbs above the root (resolved from the citing file's folder, as a link or an
// import would be), a machine's absolute /work/ path, or the design documents that used to live beside the
// repository (the product specification and its numbered sections, the architecture, style and SBF notes).
// The product's behaviour, design and style are in docs/ now: cite `docs/<file>.md#<heading>` instead.
// It also fails on the product specification cited as "the" one or by a bare section sign (a section of a
// named standard, RFC 6455 and the like, is fine) and, outside docs/*.md, on a tracker's number: the tracker
// is not in a clone either, so a comment gives the reason itself.
//   node scripts/check-references.mjs            check the clone this script is in
//   node scripts/check-references.mjs <dir>      check another git work tree
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Generated files whose relative paths have another base than their own folder (the lockfile's importers). */
const SKIPPED = new Set(['pnpm-lock.yaml', 'Cargo.lock']);
/** Larger files are data, not prose or source. */
const MAX_BYTES = 2 * 1024 * 1024;

/** The documents outside the repository, by the names they were cited with. */
const DESIGN_DOCS = ['ARCHITECTURE', 'STYLE', 'SBF'].map((name) => `${name}.md`);
// Written so that a search for these citations does not find this file itself.
const RULES = [
  { pattern: /\/work\/[\w.-]+/g, why: 'an absolute path on one machine' },
  {
    pattern: /product-(?:spec)\.md/g,
    why: 'the product specification outside the repository (docs/product.md)',
  },
  {
    // A section sign before a number, unless a standard's name and number come first (`RFC 6455 \u00a75.5.1`).
    pattern: /(?<!\b(?:RFC|ISO|IEC|IEEE|ECMA|POSIX|BIP|EIP)[\s/-]?[\d.:-]*\s?)(?:\bspec\s)?\u00a7\s?\d/gi,
    why: 'a section of the product specification outside the repository (docs/product.md#<heading>)',
  },
  { pattern: /\bshared\/(?:spec|design)\//g, why: 'the design folder outside the repository (docs/)' },
  {
    pattern: /\b(?:the|product)\s(?:spec)\b/gi,
    why: 'the product specification outside the repository (docs/product.md#<heading>)',
  },
  {
    pattern: /\bissues?\s#?\d+(?:(?:,\s*|\s(?:and|&)\s)#?\d+)*/gi,
    why: "a tracker's number: the tracker is not in the clone (give the reason, or cite docs/<file>.md#<heading>)",
    source: true,
  },
];
/** Documentation, which may describe an outside project's tracker report: the source-only rule skips it. */
const DOCS = /^docs\/.*\.md$/;
/** A relative path that starts by climbing: `../x`, `../x/y.md`, `'..'` after one or more `../`. */
const CLIMB = /(?<![\w./-])((?:\.\.\/)+(?:[\w@+-][\w@.+-]*(?:\/[\w@.+-]+)*\/?|\.\.)?)/g;
const GLOB = /[*?[{!]/;
const DESIGN_DOC = new RegExp(
  `(?<![\\w/.-])((?:[\\w.-]+\\/)*(?:${DESIGN_DOCS.join('|').replaceAll('.', '\\.')}))`,
  'g',
);

/**
 * Every reference in `text` (the file `file`, relative to `root`) that leaves the repository:
 * `{ line, match, why }`, in the order they appear.
 */
export function findReferences(root, file, text) {
  const found = [];
  const folder = dirname(join(root, file));
  const lines = text.split('\n');
  const rules = DOCS.test(file) ? RULES.filter((rule) => !rule.source) : RULES;
  for (const [index, line] of lines.entries()) {
    const at = (match, why) => found.push({ line: index + 1, match, why });
    for (const { pattern, why } of rules) for (const m of line.matchAll(pattern)) at(m[0], why);
    for (const m of line.matchAll(CLIMB)) {
      // A glob (Biome's import patterns: `../*/**`) matches imports relative to each importer, not this file.
      if (GLOB.test(line[m.index + m[0].length] ?? '')) continue;
      const target = resolve(folder, m[1]);
      if (outside(root, target)) at(m[1], `climbs out of the repository (to ${target})`);
    }
    for (const m of line.matchAll(DESIGN_DOC)) {
      // A file of that name in the repository, beside the citing file or from the root, is a fine citation.
      if (existsSync(resolve(folder, m[1])) || existsSync(join(root, m[1]))) continue;
      at(m[1], 'a design document outside the repository (docs/architecture.md, docs/style.md)');
    }
  }
  return found;
}

function outside(root, target) {
  const path = relative(root, target);
  return path === '..' || path.startsWith(`..${sep}`);
}

/** The files a clone has: tracked, plus untracked ones .gitignore does not exclude. */
export function repositoryFiles(root) {
  const out = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
    cwd: root,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  return [...new Set(out.split('\0').filter(Boolean))].sort();
}

/** Every finding of the files under `root`: `{ file, line, match, why }`. */
export function checkRepository(root) {
  const findings = [];
  for (const file of repositoryFiles(root)) {
    if (SKIPPED.has(file)) continue;
    const path = join(root, file);
    // A file deleted in the work tree but still in the index.
    if (!existsSync(path) || !statSync(path).isFile() || statSync(path).size > MAX_BYTES) continue;
    const bytes = readFileSync(path);
    if (bytes.includes(0)) continue;
    for (const f of findReferences(root, file, bytes.toString('utf8'))) findings.push({ file, ...f });
  }
  return findings;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const root = resolve(process.argv[2] ?? fileURLToPath(new URL('..', import.meta.url)));
  const findings = checkRepository(root);
  for (const f of findings) console.error(`${f.file}:${f.line}: ${f.match}: ${f.why}`);
  if (findings.length > 0) {
    console.error(`\n${findings.length} reference(s) leave the repository; cite a file under docs/ instead.`);
    process.exit(1);
  }
  console.log('References: every path cited stays inside the repository.');
}
