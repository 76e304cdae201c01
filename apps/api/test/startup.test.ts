import { randomBytes } from 'node:crypto';
import { chmod, mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT_STATE_DIR } from '../src/db/embedded.ts';
import { freePort } from './support/ports.ts';
import { startTestChain } from './support/engine-harness.ts';
import { runApiToExit, startApiProcess } from './support/process.ts';
import { adminQuery, databaseUrl } from './support/test-app.ts';

/** A root-only test runs as root, and under CI (which runs as root) fails without it instead of skipping. */
const ci = process.env.CI === 'true' || process.env.CI === '1';
const asRoot = process.getuid?.() === 0 || ci;

// Nothing listens here: these tests are about the database, the chain is reported unreachable.
const noChain = { SOLANA_RPC_URL: 'http://127.0.0.1:9' };
const machinePostgres = process.env.EXTERNAL_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/test';

const cleanups: Array<() => Promise<unknown>> = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

async function health(url: string) {
  const res = await fetch(`${url}/api/v1/health`);
  return (await res.json()) as { database: { ok: boolean } };
}

describe('starting the API', () => {
  it('stops at once with a one-line error naming a bad variable', async () => {
    const { code, stderr } = await runApiToExit({ PORT: 'abc' });
    expect(code).toBe(1);
    expect(stderr.trim()).toMatch(/^Invalid environment variable PORT: [^\n]+$/);
  });

  it('refuses the demo platform beside a cluster that is not local, whatever NODE_ENV says, in one line', async () => {
    const { code, stderr } = await runApiToExit({
      NODE_ENV: 'development',
      DEMO_PLATFORM: 'on',
      SOLANA_RPC_URL: 'https://api.devnet.solana.com',
    });
    expect(code).toBe(1);
    expect(stderr.trim()).toBe(
      'Invalid environment variable DEMO_PLATFORM: the demo platform is refused with a SOLANA_RPC_URL that is not on this machine',
    );
  });

  it('fails clearly when its port is taken, leaving nothing running', async () => {
    const blocker = createServer();
    const port = await freePort();
    await new Promise<void>((resolve) => blocker.listen(port, '127.0.0.1', resolve));
    try {
      const dataDir = await mkdtemp(join(tmpdir(), 'strm-data-'));
      cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
      await chmod(dataDir, 0o755);
      const pgPort = await freePort();
      const { code, stderr } = await runApiToExit({
        ...noChain,
        DATA_DIR: dataDir,
        PORT: String(port),
        EMBEDDED_PG_PORT: String(pgPort),
      });
      expect(code).toBe(1);
      expect(stderr).toContain(
        `STRM failed to start: listen EADDRINUSE: address already in use 127.0.0.1:${port}`,
      );
      // The embedded PostgreSQL it had started is stopped again: its port is free.
      const probe = createServer();
      await new Promise<void>((resolve, reject) => {
        probe.once('error', reject);
        probe.listen(pgPort, '127.0.0.1', () => probe.close(() => resolve()));
      });
    } finally {
      blocker.close();
    }
  });

  it('keeps its embedded database across a restart', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'strm-data-'));
    cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
    // mkdtemp makes it private; the embedded server runs as the user postgres when we are root.
    await chmod(dataDir, 0o755);
    const env = {
      ...noChain,
      DATA_DIR: dataDir,
      PORT: String(await freePort()),
      EMBEDDED_PG_PORT: String(await freePort()),
    };

    const first = await startApiProcess(env);
    expect((await health(first.url)).database.ok).toBe(true);
    await fetch(`${first.url}/api/v1/tiers`);
    const password = (await readFile(join(dataDir, 'postgres', 'password'), 'utf8')).trim();
    const pgUrl = `postgresql://postgres:${password}@127.0.0.1:${env.EMBEDDED_PG_PORT}/strm`;
    await adminQuery(pgUrl, `UPDATE tiers SET name = 'Renamed Tier' WHERE order_by = 1`);
    // A second start on the same data directory (another terminal) is refused before it touches anything:
    // the first one's PostgreSQL is not taken for a crashed run's and stopped under it.
    const twice = await runApiToExit({ ...env, PORT: String(await freePort()) });
    expect(twice.code).toBe(1);
    expect(twice.stderr.trim()).toBe(
      `STRM is already running on ${dataDir} (pid ${first.child.pid}): stop it first (Ctrl-C in its terminal), or give this one another DATA_DIR`,
    );
    const after = (await (await fetch(`${first.url}/api/v1/health`)).json()) as {
      database: { ok: boolean; restarts: number };
    };
    expect(after.database).toMatchObject({ ok: true, restarts: 0 });
    expect(await first.stop()).toBe(0);

    const second = await startApiProcess(env);
    cleanups.push(() => second.stop());
    const tiers = (await (await fetch(`${second.url}/api/v1/tiers`)).json()) as Array<{ name: string }>;
    expect(tiers[0]!.name).toBe('Renamed Tier');
    expect(tiers).toHaveLength(9);
  });

  // The most common first run: root on a cloud VM or in a container, the clone under /root (mode 0700).
  it.runIf(asRoot)(
    'as root, starts and keeps its data from a clone inside a directory only root may enter',
    async () => {
      expect(process.getuid?.(), 'this test needs root').toBe(0);
      const privateDir = await mkdtemp(join(tmpdir(), 'strm-private-'));
      cleanups.push(() => rm(privateDir, { recursive: true, force: true }));
      expect((await stat(privateDir)).mode & 0o777).toBe(0o700);
      const dataDir = join(privateDir, 'clone', '.data');
      const env = {
        ...noChain,
        DATA_DIR: dataDir,
        PORT: String(await freePort()),
        EMBEDDED_PG_PORT: String(await freePort()),
      };

      const first = await startApiProcess(env);
      const clusterHome = (await readFile(join(dataDir, 'postgres', 'CLUSTER'), 'utf8')).split('\n')[0]!;
      cleanups.push(() => rm(clusterHome, { recursive: true, force: true }));
      expect(clusterHome.startsWith(`${ROOT_STATE_DIR}/cluster-`)).toBe(true);
      expect((await health(first.url)).database.ok).toBe(true);
      const password = (await readFile(join(dataDir, 'postgres', 'password'), 'utf8')).trim();
      const pgUrl = `postgresql://postgres:${password}@127.0.0.1:${env.EMBEDDED_PG_PORT}/strm`;
      await adminQuery(pgUrl, `UPDATE tiers SET name = 'Private Tier' WHERE order_by = 1`);
      expect(await first.stop()).toBe(0);

      const second = await startApiProcess(env);
      cleanups.push(() => second.stop());
      const tiers = (await (await fetch(`${second.url}/api/v1/tiers`)).json()) as Array<{ name: string }>;
      expect(tiers[0]!.name).toBe('Private Tier');
    },
  );

  it('uses another PostgreSQL when DATABASE_URL points at it', async () => {
    const name = `strm_ext_${randomBytes(5).toString('hex')}`;
    await adminQuery(machinePostgres, `CREATE DATABASE "${name}"`);
    cleanups.push(() => adminQuery(machinePostgres, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
    const url = databaseUrl(machinePostgres, name);

    const api = await startApiProcess({ ...noChain, DATABASE_URL: url, PORT: String(await freePort()) });
    cleanups.push(() => api.stop());
    expect((await health(api.url)).database.ok).toBe(true);
    const { rows } = await adminQuery(url, 'SELECT count(*)::int AS n FROM tiers');
    expect(rows[0].n).toBe(9);
    const migrations = await adminQuery(
      url,
      'SELECT migration_name FROM _prisma_migrations WHERE finished_at IS NOT NULL',
    );
    expect(migrations.rowCount).toBeGreaterThan(0);
  });

  it('refuses to run on a database that belongs to another chain, whatever its profile', async () => {
    const name = `strm_chain_${randomBytes(5).toString('hex')}`;
    await adminQuery(machinePostgres, `CREATE DATABASE "${name}"`);
    cleanups.push(() => adminQuery(machinePostgres, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
    const url = databaseUrl(machinePostgres, name);
    const [production, development] = [await startTestChain(), await startTestChain()];
    cleanups.push(
      () => production.stop(),
      () => development.stop(),
    );

    const api = await startApiProcess({
      DATABASE_URL: url,
      SOLANA_RPC_URL: production.local.rpcUrl,
      PORT: String(await freePort()),
    });
    await api.stop();
    const recorded = await adminQuery(url, 'SELECT genesis_hash FROM chain_identity');
    expect(recorded.rows).toEqual([{ genesis_hash: await production.local.connection.getGenesisHash() }]);

    // The development profile (demo platform, its own chain) pointed at that database does not start.
    const { code, stderr } = await runApiToExit({
      DATABASE_URL: url,
      SOLANA_RPC_URL: development.local.rpcUrl,
      DEMO_PLATFORM: 'on',
      PORT: String(await freePort()),
    });
    expect(code).toBe(1);
    const other = await development.local.connection.getGenesisHash();
    expect(stderr.trim().split('\n').at(-1)).toBe(
      `This database belongs to the chain with genesis hash ${recorded.rows[0].genesis_hash} (first seen at ${new URL(production.local.rpcUrl).origin}), but ${new URL(development.local.rpcUrl).origin} answers ${other}: rewards of one chain are never added to, or paid from, another's database. Point DATABASE_URL at this chain's own database.`,
    );
    // Its own chain again: it starts.
    const again = await startApiProcess({
      DATABASE_URL: url,
      SOLANA_RPC_URL: production.local.rpcUrl,
      PORT: String(await freePort()),
    });
    expect((await health(again.url)).database.ok).toBe(true);
    await again.stop();
  }, 180_000);
});
