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
const section = ['spec', '§4'].join(' ');
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
