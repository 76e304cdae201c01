#!/usr/bin/env node
// The docs stay true to the code (docs/testing.md#docs-kept-true). Fails (exit 1, one `file:line: what` per
// finding) when:
//   - a variable the product reads is missing from docs/configuration.md, or one named there is read nowhere;
//   - a path a document names in backticks (`apps/api/src/x.ts`, `socket/events.ts`) is no file or folder;
//   - a function a document names in backticks (`handle()`) is defined nowhere, or not in the file the same
//     line names;
//   - a citation `docs/<file>.md#<heading>`, in a document or in code, names no such file or heading.
//   node scripts/check-docs.mjs            check the clone this script is in
//   node scripts/check-docs.mjs <dir>      check another work tree
import { existsSync, readFileSync } from 'node:fs';
import { join, posix, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { repositoryFiles } from './check-references.mjs';

/** Where the product's variables are declared (zod schemas over the environment). */
const SCHEMAS = ['apps/api/src/config.ts', 'apps/api/src/oauth-platforms-config.ts'];
/** Where else the product reads the environment directly (tests, benchmarks and tools excluded). */
const READERS =
  /^(apps\/api\/src|apps\/web\/src|chain\/ts|packages\/(shared|mining-client|migrations)\/src)\/.*\.tsx?$|^apps\/web\/vite\.config\.ts$/;
/** Set by the machine or the package manager, not by an operator. */
const NOT_OURS = new Set(['HOSTNAME', 'INIT_CWD']);
const SOURCE = /\.(ts|tsx|mjs|js|rs|sh)$/;
const DOCS = /^(docs\/[\w-]+\.md|README\.md|[\w-]+\/README\.md|apps\/[\w-]+\/README\.md)$/;
const TEXT = /\.(ts|tsx|mjs|js|rs|sh|md|yml|yaml|toml|sql|prisma|json)$/;

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens. */
export function slug(heading) {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

/** The anchors of a markdown text's headings (outside fenced code). */
export function anchors(markdown) {
  const found = new Set();
  let fenced = false;
  for (const line of markdown.split('\n')) {
    if (/^\s*```/.test(line)) fenced = !fenced;
    const m = !fenced && /^#{1,6}\s+(.*)$/.exec(line);
    if (m) found.add(slug(m[1]));
  }
  return found;
}

/** The variables a schema file declares (its keys in capitals) and every `process.env.X` of a source text. */
export function variablesRead(text, { schema = false } = {}) {
  const names = new Set();
  if (schema) for (const m of text.matchAll(/^\s{2}([A-Z][A-Z0-9_]+):/gm)) names.add(m[1]);
  for (const m of text.matchAll(/process\.env(?:\.([A-Z][A-Z0-9_]*)|\[['"]([A-Z][A-Z0-9_]*)['"]\])/g)) {
    names.add(m[1] ?? m[2]);
  }
  return names;
}

/** The variables docs/configuration.md's table names: the backticked capitals of each row's first cell. */
export function variablesDocumented(markdown) {
  const rows = new Map();
  for (const [index, line] of markdown.split('\n').entries()) {
    const cell = /^\|([^|]*)\|/.exec(line)?.[1] ?? '';
    for (const m of cell.matchAll(/`([A-Z][A-Z0-9_]+)`/g)) rows.set(m[1], index + 1);
  }
  return rows;
}

const DEFINITION = (name) =>
  new RegExp(
    [
      `\\bfunction\\*?\\s+${name}\\b`,
      `\\b(?:const|let|var)\\s+${name}\\s*=`,
      `\\bfn\\s+${name}\\b`,
      `^\\s*(?:export\\s+)?(?:public\\s+|private\\s+|protected\\s+|static\\s+|async\\s+|readonly\\s+)*${name}\\s*[<(]`,
      `^\\s*${name}\\s*:\\s*(?:async\\s*)?(?:\\(|function)`,
    ].join('|'),
    'm',
  );

/** Whether `span` (a backticked word of a document) names a path in the repository: a file with a source or
 * text extension, or anything under one of the clone's top folders; never build output or data. */
function pathLike(span, tops) {
  if (/[\s*<>{}…$|]|^https?:|^[/~.@]/.test(span)) return false;
  if (!/^[\w.-]+(\/[\w.[\]-]+)+\/?$/.test(span)) return false;
  const segments = span.replace(/\/$/, '').split('/');
  if (segments.some((s) => ['dist', 'node_modules', 'target', '.data'].includes(s))) return false;
  return (
    /\.(ts|tsx|mjs|js|rs|sh|md|ya?ml|toml|sql|prisma|json|cfg|css|html)$/.test(span) || tops.has(segments[0])
  );
}

/** The file a path names: from the root, beside the document, or the end of one file's or folder's path. */
function resolvePath(span, doc, files, folders) {
  const path = span.replace(/\/$/, '');
  if (files.has(path) || folders.has(path)) return path;
  const beside = posix.join(posix.dirname(doc), path);
  if (files.has(beside) || folders.has(beside)) return beside;
  for (const f of files) if (f.endsWith(`/${path}`)) return f;
  for (const f of folders) if (f.endsWith(`/${path}`)) return f;
  return undefined;
}

/** Every finding under `root`: `{ file, line, what }`. */
export function checkDocs(root) {
  const listed = repositoryFiles(root).filter((f) => existsSync(join(root, f)));
  const files = new Set(listed);
  const folders = new Set();
  for (const f of listed) for (let d = posix.dirname(f); d !== '.'; d = posix.dirname(d)) folders.add(d);
  const tops = new Set(listed.filter((f) => f.includes('/')).map((f) => f.split('/')[0]));
  const read = (f) => readFileSync(join(root, f), 'utf8');
  const sources = listed.filter((f) => SOURCE.test(f));
  const text = new Map(listed.filter((f) => TEXT.test(f)).map((f) => [f, read(f)]));
  const findings = [];

  // Variables: read ⇔ documented.
  const read_ = new Map();
  for (const f of SCHEMAS)
    for (const v of variablesRead(text.get(f) ?? '', { schema: true })) read_.set(v, f);
  for (const f of sources.filter((s) => READERS.test(s) && !/\.test\.tsx?$/.test(s))) {
    for (const v of variablesRead(text.get(f))) if (!read_.has(v)) read_.set(v, f);
  }
  const configuration = 'docs/configuration.md';
  const documented = variablesDocumented(text.get(configuration) ?? '');
  for (const [v, f] of read_) {
    if (!NOT_OURS.has(v) && !documented.has(v)) {
      findings.push({ file: f, line: 1, what: `${v} is read but missing from ${configuration}` });
    }
  }
  const everywhere = sources.map((f) => text.get(f)).join('\n');
  for (const [v, line] of documented) {
    if (!new RegExp(`\\b${v}\\b`).test(everywhere)) {
      findings.push({ file: configuration, line, what: `${v} is documented but nothing reads it` });
    }
  }

  // Headings cited as docs/<file>.md#<heading>, anywhere.
  const headings = new Map();
  const headingsOf = (doc) => {
    if (!headings.has(doc)) headings.set(doc, anchors(text.get(doc) ?? ''));
    return headings.get(doc);
  };
  for (const [f, body] of text) {
    for (const [index, line] of body.split('\n').entries()) {
      for (const m of line.matchAll(/\bdocs\/([\w-]+\.md)#([\w-]+)/g)) {
        const doc = `docs/${m[1]}`;
        if (!files.has(doc)) findings.push({ file: f, line: index + 1, what: `${doc} does not exist` });
        else if (!headingsOf(doc).has(m[2])) {
          findings.push({ file: f, line: index + 1, what: `${doc} has no heading #${m[2]}` });
        }
      }
    }
  }

  // Documents: backticked paths exist; backticked functions are defined (in the file the line names).
  for (const doc of listed.filter((f) => DOCS.test(f))) {
    let fenced = false;
    for (const [index, line] of text.get(doc).split('\n').entries()) {
      if (/^\s*```/.test(line)) fenced = !fenced;
      if (fenced) continue;
      const at = (what) => findings.push({ file: doc, line: index + 1, what });
      const spans = [...line.matchAll(/`([^`]+)`/g)].map((m) => m[1]);
      const named = [];
      for (const span of spans) {
        const [path, anchor] = span.split('#');
        // `docs/<file>.md#<heading>` is checked above, wherever it is written.
        if (/^docs\/[\w-]+\.md#/.test(span) || !pathLike(path, tops)) continue;
        const found = resolvePath(path, doc, files, folders);
        if (!found) at(`\`${span}\` names no file or folder`);
        else {
          named.push(found);
          if (anchor && found.endsWith('.md') && !headingsOf(found).has(anchor)) {
            at(`\`${span}\`: ${found} has no heading #${anchor}`);
          }
        }
      }
      for (const span of spans) {
        const m = /^(?:[\w$]+\.)*([A-Za-z_$][\w$]*)\(\)$/.exec(span);
        if (!m) continue;
        const definition = DEFINITION(m[1]);
        const code = named.filter((f) => SOURCE.test(f));
        const where = code.length > 0 ? code : sources;
        if (!where.some((f) => definition.test(text.get(f)))) {
          at(`\`${span}\` is defined in none of ${code.length > 0 ? code.join(', ') : 'the sources'}`);
        }
      }
    }
  }
  return findings;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const root = resolve(process.argv[2] ?? fileURLToPath(new URL('..', import.meta.url)));
  const findings = checkDocs(root);
  for (const f of findings) console.error(`${f.file}:${f.line}: ${f.what}`);
  if (findings.length > 0) {
    console.error(`\n${findings.length} claim(s) in the docs do not hold (docs/testing.md#docs-kept-true).`);
    process.exit(1);
  }
  console.log('Docs: every variable, path, function and heading they name exists.');
}
