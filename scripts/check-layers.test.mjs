// scripts/check-layers.mjs on small git repositories made for each test: an import that runs back up and a
// Streamer row touched outside the repository fail with their file and line; the layering as written passes.
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { checkLayers, importsOf, layerOf } from './check-layers.mjs';

const script = fileURLToPath(new URL('check-layers.mjs', import.meta.url));
const made = [];
after(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

/** A git repository holding `files` ({ path under apps/api/src: text }), all tracked. */
function api(files) {
  const root = mkdtempSync(join(tmpdir(), 'check-layers-'));
  made.push(root);
  execFileSync('git', ['init', '-q'], { cwd: root });
  const paths = Object.keys(files).map((p) => `apps/api/src/${p}`);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, 'apps/api/src', path)), { recursive: true });
    writeFileSync(join(root, 'apps/api/src', path), text);
  }
  execFileSync('git', ['add', '--', ...paths], { cwd: root });
  return root;
}

const layered = {
  'app.ts': "import { apiRouter } from './routes/index.ts';\n",
  'routes/index.ts': "import type { Services } from '../services/index.ts';\n",
  'services/index.ts': "import { StreamerRepository } from '../db/streamer-repository.ts';\n",
  'db/streamer-repository.ts':
    "import type { Clock } from '../clock.ts';\nexport const one = (db) => db.streamer.findUnique({});\n",
  'services/rewards/claims.ts': 'const sql = `UPDATE streamers SET pending_reward_units = 0`;\n',
  'clock.ts': 'export interface Clock {}\n',
};
const run = (root) => spawnSync(process.execPath, [script, root], { encoding: 'utf8' });

describe('check-layers', () => {
  it('reads relative imports and places files in their layers', () => {
    assert.deepEqual(
      importsOf(
        "import a from './a.ts';\nimport type { B } from '../b/c.ts';\nconst d = import('./d.ts');\n",
      ),
      [
        { line: 1, target: './a.ts' },
        { line: 2, target: '../b/c.ts' },
        { line: 3, target: './d.ts' },
      ],
    );
    assert.ok(layerOf('apps/api/src/routes/x.ts') < layerOf('apps/api/src/services/y/z.ts'));
    assert.equal(layerOf('apps/api/src/nowhere/x.ts'), undefined);
  });

  it('passes imports that run down and Streamer rows touched by the repository alone', () => {
    const root = api(layered);
    assert.deepEqual(checkLayers(root), []);
    assert.equal(run(root).status, 0);
  });

  it('fails on an import from a layer above, naming the file, the line and the import', () => {
    const root = api({
      ...layered,
      'clock.ts': "import type { Config } from './config.ts';\nimport { x } from './services/index.ts';\n",
    });
    const result = run(root);
    assert.equal(result.status, 1);
    assert.match(
      result.stderr,
      /^apps\/api\/src\/clock\.ts:2: imports services\/index\.ts, a layer above its own/m,
    );
  });

  it('fails on Streamer rows touched through Prisma or written in SQL outside the repository', () => {
    const root = api({
      ...layered,
      'services/settings.ts': 'await tx.streamer.update({ where: { wallet } });\n',
      'services/overlay.ts': 'await db.$executeRaw`UPDATE streamers SET timezone = $1`;\n',
    });
    const found = checkLayers(root).map((f) => `${f.file}:${f.line}`);
    assert.deepEqual(found.sort(), [
      'apps/api/src/services/overlay.ts:1',
      'apps/api/src/services/settings.ts:1',
    ]);
  });

  it('fails on a file in no layer', () => {
    const root = api({ ...layered, 'stray/x.ts': 'export const x = 1;\n' });
    assert.deepEqual(checkLayers(root), [
      { file: 'apps/api/src/stray/x.ts', line: 1, what: 'is in no layer (add its file or folder to LAYERS)' },
    ]);
  });
});
