// scripts/check-references.mjs on small git repositories made for each test: it lists a reference that
// leaves the repository with its file and line, and lets paths that stay inside pass. The bad references
// are assembled at run time, so that this file passes the check it tests.
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { checkRepository, findReferences } from './check-references.mjs';

const script = fileURLToPath(new URL('check-references.mjs', import.meta.url));
const up = (n) => '../'.repeat(n);
const spec = ['product', 'spec.md'].join('-');
const sign = String.fromCharCode(0xa7);
const section = ['spec', `${sign}4`].join(' ');
const tracker = (n) => ['issue', n].join(' ');
const theSpec = ['the', 'spec'].join(' ');
const trackers = ['issues', '18 and 36'].join(' ');
const designFolder = ['shared', 'design', ''].join('/');
const styleGuide = ['STYLE', 'md'].join('.');
const machinePath = ['', 'work', 'elsewhere'].join('/');

const made = [];
after(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

/** A git repository holding `files` ({ path: text }), one of them untracked when `untracked` names it. */
function repository(files, { untracked = [], ignore = '' } = {}) {
  const root = mkdtempSync(join(tmpdir(), 'check-references-'));
  made.push(root);
  execFileSync('git', ['init', '-q'], { cwd: root });
  if (ignore) writeFileSync(join(root, '.gitignore'), ignore);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  const tracked = Object.keys(files).filter((path) => !untracked.includes(path));
  execFileSync('git', ['add', '--', ...tracked], { cwd: root });
  return root;
}

const run = (root) => spawnSync(process.execPath, [script, root], { encoding: 'utf8' });

describe('check-references', () => {
  it('passes paths that stay inside the repository, however far they climb from deep folders', () => {
    const root = repository({
      'apps/api/src/app.ts': `import { x } from '${up(3)}packages/shared/src/index.ts';\n// docs/product.md#daily-cap\n`,
      'apps/web/README.md': `See [the product](${up(2)}docs/product.md#dashboard) and ${up(1)}api/README.md.\n`,
      'docs/style.md': '# Style\n',
      'biome.json': '{ "group": ["../*/**", "!../*/index.ts", "!../../**"] }\n',
    });
    assert.deepEqual(checkRepository(root), []);
    const result = run(root);
    assert.equal(result.status, 0, result.stderr);
  });

  it('fails on a relative path that climbs above the root, naming the file and the line', () => {
    const root = repository({
      'README.md': `# Title\n\nThe behaviour: [spec](${up(1)}shared/notes.md).\n`,
      'scripts/sbf/build.sh': `#!/bin/sh\n# why: ${up(3)}elsewhere/notes.md\n`,
    });
    const result = run(root);
    assert.equal(result.status, 1);
    assert.match(result.stderr, /^README\.md:3: \.\.\/shared\/notes\.md: climbs out of the repository/m);
    assert.match(result.stderr, /^scripts\/sbf\/build\.sh:2: (\.\.\/){3}elsewhere\/notes\.md: climbs out/m);
  });

  it('fails on citations of the design documents that lived outside the repository', () => {
    const text = [
      `// The rule (${styleGuide}), the calls (${section}), the source (${spec}).`,
      `// ${designFolder}notes.md and ${machinePath}/notes.md`,
    ].join('\n');
    const found = findReferences('/repo', 'apps/web/src/lib/api.ts', text).map((f) => `${f.line} ${f.match}`);
    assert.deepEqual(
      found.sort(),
      [`1 ${section}`, `1 ${spec}`, `1 ${styleGuide}`, `2 ${designFolder}`, `2 ${machinePath}`].sort(),
    );
  });

  it("fails on a tracker's number and the product specification cited by its sections or by name", () => {
    const text = [
      `// The overlay (${tracker(24)}), the platforms (${tracker('#40')}), both (${trackers}).`,
      `/** Spec ${sign}5: the token. Strings of the screen (${sign}2, ${sign}5), in ${theSpec}'s order. */`,
      `// Capitalised: ${tracker(21).replace('i', 'I')}, The product ${'spec'}.`,
    ].join('\n');
    const found = findReferences('/repo', 'apps/web/src/a.tsx', text).map((f) => `${f.line} ${f.match}`);
    assert.deepEqual(
      found.sort(),
      [
        `1 ${tracker('#40')}`,
        `1 ${trackers}`,
        `1 ${tracker(24)}`,
        `2 ${sign}2`,
        `2 ${sign}5`,
        `2 Spec ${sign}5`,
        `2 ${theSpec}`,
        `3 ${tracker(21).replace('i', 'I')}`,
        `3 product ${'spec'}`,
      ].sort(),
    );
  });

  it("passes a named standard's sections and other specs; docs/*.md may name an outside tracker's report", () => {
    const text = [
      `// The closing handshake (RFC 6455 ${sign}5.5.1), a masked frame (RFC 6455 ${sign}5.3), ECMA-262 ${sign}7.1.`,
      `// The target spec's path; --test-reporter=spec; "spec": "0.1.0"; this specification's rule.`,
    ].join('\n');
    assert.deepEqual(findReferences('/repo', 'chain/src/pubsub/mod.rs', text), []);
    const report = `Batches answer false (KickDevDocs ${tracker(321)}).\n`;
    assert.deepEqual(findReferences('/repo', 'docs/platforms.md', report), []);
    const cited = findReferences('/repo', 'docs/engine.md', `As ${theSpec} says.\n`).map((f) => f.match);
    assert.deepEqual(cited, [theSpec]);
    assert.deepEqual(
      findReferences('/repo', 'README.md', report).map((f) => f.match),
      [tracker(321)],
    );
  });

  it('checks untracked files that are not ignored, and skips ignored ones', () => {
    const root = repository(
      { 'notes/new.md': `${section}\n`, 'build/out.md': `${section}\n`, 'ok.md': 'fine\n' },
      { untracked: ['notes/new.md', 'build/out.md'], ignore: 'build/\n' },
    );
    assert.deepEqual(
      checkRepository(root).map((f) => `${f.file}:${f.line}`),
      ['notes/new.md:1'],
    );
  });

  it('accepts a design document of that name inside the repository', () => {
    const root = repository({ [`docs/${styleGuide}`]: '# Style\n', 'src/a.ts': `// docs/${styleGuide}\n` });
    assert.deepEqual(checkRepository(root), []);
  });
});
