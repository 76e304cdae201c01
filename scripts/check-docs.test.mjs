// scripts/check-docs.mjs on small git repositories made for each test: a document that names a variable, a
// path, a function or a heading that does not exist fails with its file and line; true claims pass.
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { anchors, checkDocs, slug } from './check-docs.mjs';

// Assembled at run time, so that this file passes the check it tests.
const docs = 'docs';
const script = fileURLToPath(new URL('check-docs.mjs', import.meta.url));
const made = [];
after(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

/** A git repository holding `files` ({ path: text }), all tracked. */
function repository(files) {
  const root = mkdtempSync(join(tmpdir(), 'check-docs-'));
  made.push(root);
  execFileSync('git', ['init', '-q'], { cwd: root });
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  execFileSync('git', ['add', '--', ...Object.keys(files)], { cwd: root });
  return root;
}

/** A small product whose docs are true: two variables, a function, a heading cited from code. */
const trueProduct = {
  'apps/api/src/config.ts': 'const schema = z.object({\n  PORT: port,\n  REDIS_URL: url,\n});\n',
  'apps/api/src/socket/events.ts':
    '// Why: docs/engine.md#a-sessions-life\nexport function listener(event) {\n  return event;\n}\n',
  'chain/ts/index.ts': 'const binary = process.env.STRM_LOCAL_CHAIN_BINARY;\n',
  'docs/configuration.md':
    '| variable | default |\n|---|---|\n| `PORT` | `3000` |\n| `REDIS_URL`, `STRM_LOCAL_CHAIN_BINARY` | none |\n',
  'docs/engine.md':
    "# Engine\n\n## A session's life\n\n`socket/events.ts`'s `listener()` and `apps/api/src/`.\n",
  'README.md': 'See `docs/engine.md#a-sessions-life`, `@strm/shared`, `.data/chain/` and `DATA_DIR/x`.\n',
};

const run = (root) => spawnSync(process.execPath, [script, root], { encoding: 'utf8' });

describe('check-docs', () => {
  it('makes the anchors GitHub makes', () => {
    assert.equal(slug("A session's life"), 'a-sessions-life');
    assert.equal(slug('Known differences from a validator'), 'known-differences-from-a-validator');
    assert.deepEqual([...anchors('# A\n```\n# not a heading\n```\n## B c\n')], ['a', 'b-c']);
  });

  it('passes a repository whose docs name only what exists', () => {
    const root = repository(trueProduct);
    assert.deepEqual(checkDocs(root), []);
    const result = run(root);
    assert.equal(result.status, 0, result.stderr);
  });

  it('fails on a variable read but not documented, and one documented but read nowhere', () => {
    const root = repository({
      ...trueProduct,
      'apps/api/src/config.ts': 'const schema = z.object({\n  PORT: port,\n  KICK_WEBHOOKS: onOff,\n});\n',
    });
    const result = run(root);
    assert.equal(result.status, 1);
    assert.match(
      result.stderr,
      /^apps\/api\/src\/config\.ts:1: KICK_WEBHOOKS is read but missing from docs\/configuration\.md/m,
    );
    assert.match(result.stderr, /^docs\/configuration\.md:4: REDIS_URL is documented but nothing reads it/m);
  });

  it('fails on a function the line places in a file that does not define it', () => {
    const root = repository({
      ...trueProduct,
      'docs/engine.md': "# Engine\n\n## A session's life\n\n`socket/events.ts`'s `handle()` validates.\n",
    });
    const found = checkDocs(root).map((f) => `${f.file}:${f.line}: ${f.what}`);
    assert.deepEqual(found, [
      'docs/engine.md:5: `handle()` is defined in none of apps/api/src/socket/events.ts',
    ]);
  });

  it('fails on a path that names no file, and on headings cited from docs or code that do not exist', () => {
    const root = repository({
      ...trueProduct,
      'apps/api/src/socket/events.ts': `// ${docs}/engine.md#the-tick\nexport function listener() {}\n`,
      'README.md': `See \`lib/zod-jitless.ts\` and \`docs/engine.md#a-sessions-life\` and \`${docs}/gone.md#x\`.\n`,
    });
    const found = checkDocs(root).map((f) => `${f.file}:${f.line}: ${f.what}`);
    assert.deepEqual(found.sort(), [
      'README.md:1: `lib/zod-jitless.ts` names no file or folder',
      'README.md:1: docs/gone.md does not exist',
      'apps/api/src/socket/events.ts:1: docs/engine.md has no heading #the-tick',
    ]);
  });
});
