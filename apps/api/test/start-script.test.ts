// The API as `./run start` runs it (its start command, in a shell, as a terminal's job), stopped as an
// operator stops it: Ctrl-C reaches the whole process group while the API may be busy (10,000 live sessions
// keep its event loop working), and the API still stops as it should: its own shutdown (sessions
// checkpointed, its children stopped in order), not a kill. The embedded PostgreSQL and the local chain are in
// their own process groups, so the Ctrl-C reaches the API alone; and a killed API (SIGKILL: a crash, the OOM
// killer) leaves nothing that stops the next start.
import { readFileSync, readdirSync, readlinkSync } from 'node:fs';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type StartedProcess, startProcess } from '@strm/testing';
import { afterAll, expect, it } from 'vitest';
import { accepts, errorLines, processesUsing } from './support/leftovers.ts';
import { freePort, freePortPair } from '@strm/testing';

const apiDir = fileURLToPath(new URL('..', import.meta.url));
const startScript = (
  JSON.parse(readFileSync(join(apiDir, 'package.json'), 'utf8')) as {
    scripts: Record<string, string>;
  }
).scripts.start!;

const cleanups: Array<() => Promise<unknown>> = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

/** The process listening on this TCP port on 127.0.0.1, from /proc (Linux). */
function listenerPid(port: number): number {
  const portHex = port.toString(16).toUpperCase().padStart(4, '0');
  const inodes = new Set<string>();
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    for (const line of readFileSync(table, 'utf8').split('\n').slice(1)) {
      const f = line.trim().split(/\s+/);
      // local_address is ADDR:PORT in hex; state 0A is LISTEN; the inode is the tenth field.
      if (f[1]?.endsWith(`:${portHex}`) && f[3] === '0A') inodes.add(`socket:[${f[9]}]`);
    }
  }
  for (const pid of readdirSync('/proc').filter((p) => /^\d+$/.test(p))) {
    let fds: string[];
    try {
      fds = readdirSync(`/proc/${pid}/fd`);
    } catch {
      continue;
    }
    for (const fd of fds) {
      try {
        if (inodes.has(readlinkSync(`/proc/${pid}/fd/${fd}`))) return Number(pid);
      } catch {}
    }
  }
  throw new Error(`nothing listens on port ${port}`);
}

/**
 * The API's start command in a shell, as ./run start runs it (the packages' binaries first on the PATH), in
 * its own process group as a terminal's job, on an embedded PostgreSQL; no chain unless `env` asks for it.
 */
async function startApi(
  env: Record<string, string> = {},
  reuse: { dataDir?: string; port?: number; pgPort?: number } = {},
) {
  let dataDir = reuse.dataDir;
  if (!dataDir) {
    const made = await mkdtemp(join(tmpdir(), 'strm-start-'));
    cleanups.push(() => rm(made, { recursive: true, force: true }));
    // mkdtemp makes it private; the embedded server runs as the user postgres when we are root.
    await chmod(made, 0o755);
    dataDir = made;
  }
  const port = reuse.port ?? (await freePort());
  const pgPort = reuse.pgPort ?? (await freePort());
  const bin = [join(apiDir, 'node_modules', '.bin'), join(apiDir, '..', '..', 'node_modules', '.bin')];
  // `exec`, as ./run start runs it: the API is the terminal's job itself, with no shell or package manager
  // between to report a requested stop as a failure.
  const started = await startProcess('sh', ['-c', `exec ${startScript}`], /ready at (http:\/\/\S+)/, {
    cwd: apiDir,
    env: {
      ...process.env,
      PATH: [...bin, process.env.PATH].join(':'),
      NODE_ENV: 'development',
      LOG_LEVEL: 'info',
      DATA_DIR: dataDir,
      PORT: String(port),
      EMBEDDED_PG_PORT: String(pgPort),
      SOLANA_RPC_URL: 'http://127.0.0.1:9',
      ...env,
    },
    group: true,
    label: 'pnpm start',
    timeoutMs: 120_000,
  });
  cleanups.push(() => started.stop(10_000));
  return { started, port, pgPort, dataDir };
}

/** Ctrl-C: SIGINT to the whole process group, as a terminal sends it. */
const ctrlC = (started: StartedProcess) => process.kill(-started.child.pid!, 'SIGINT');

/** The API went through its shutdown: said so, closed its port, and stopped its PostgreSQL. */
async function expectShutdown({ started, port, pgPort }: Awaited<ReturnType<typeof startApi>>) {
  await started.exited;
  await expect.poll(() => started.output(), { timeout: 30_000 }).toContain('"msg":"stopped"');
  expect(started.output()).toContain('"signal":"SIGINT","msg":"shutting down"');
  expect(await accepts(port)).toBe(false);
  await expect.poll(() => accepts(pgPort), { timeout: 30_000 }).toBe(false);
}

it('stops through its own shutdown on Ctrl-C, even while it cannot answer for a moment', async () => {
  const api = await startApi();
  const pid = listenerPid(api.port);

  // The API's event loop held for half a second (a stopped process answers nothing, as a busy one), then Ctrl-C.
  process.kill(pid, 'SIGSTOP');
  ctrlC(api.started);
  await new Promise((resolve) => setTimeout(resolve, 500));
  try {
    process.kill(pid, 'SIGCONT');
  } catch {
    // Gone already: something killed it while it could not answer (what this test is about).
  }
  await expectShutdown(api);
});

it('stops through its own shutdown on a Ctrl-C sent the moment it says it is ready', async () => {
  // The API's main thread held for a second right after it printed its ready line (as a busy machine may
  // deschedule it there), and Ctrl-C sent as soon as the line is read: the signal is its own by then.
  const api = await startApi({ NODE_OPTIONS: `--import ${join(apiDir, 'test', 'stall-after-ready.mjs')}` });
  ctrlC(api.started);
  await expectShutdown(api);
});

it('on Ctrl-C with the local chain running, stops the chain and PostgreSQL itself, after its checkpoint, with no error', async () => {
  const chainPort = await freePortPair();
  const api = await startApi({
    SOLANA_RPC_URL: '',
    LOCAL_CHAIN_PORT: String(chainPort),
    LOCAL_CHAIN_BUILD: 'off',
  });
  expect(api.started.output()).toContain('local chain started');
  const stoppedAt = Date.now();
  ctrlC(api.started);
  await expectShutdown(api);
  // The terminal's SIGINT reached the API alone: the chain and the database were up for its last
  // checkpoint and were stopped by it, so nothing failed on the way out (before: "Can't reach database
  // server", "PubSub connection failed", and web3.js's accountUnsubscribe error a million times).
  expect(await api.started.exited).toBe(0);
  expect(Date.now() - stoppedAt).toBeLessThan(10_000);
  expect(errorLines(api.started.output())).toEqual([]);
  expect(await accepts(chainPort)).toBe(false);
  expect(processesUsing(api.dataDir)).toEqual([]);
});

it('starts again after the API was killed (SIGKILL), stopping the PostgreSQL the killed one left running', async () => {
  const first = await startApi();
  const apiPid = listenerPid(first.port);
  const postgresPid = listenerPid(first.pgPort);
  process.kill(apiPid, 'SIGKILL');
  await first.started.exited;
  // Its own process group: the server outlived the API, on its port, with its lock file.
  expect(await accepts(first.pgPort)).toBe(true);

  const second = await startApi({}, first);
  expect(second.started.output()).toContain(`stopping the embedded PostgreSQL (pid ${postgresPid})`);
  expect(listenerPid(second.pgPort)).not.toBe(postgresPid);
  const res = await fetch(`http://127.0.0.1:${second.port}/api/v1/health`);
  expect(res.status).toBe(200);
  ctrlC(second.started);
  await expectShutdown(second);
  expect(processesUsing(second.dataDir)).toEqual([]);
});

it('refuses to start beside a stranger on its PostgreSQL port, and leaves that process alone', async () => {
  const { createServer } = await import('node:net');
  const stranger = createServer();
  const pgPort = await freePort();
  await new Promise<void>((resolve) => stranger.listen(pgPort, '127.0.0.1', resolve));
  try {
    await expect(startApi({}, { pgPort })).rejects.toThrow(
      `Embedded PostgreSQL could not start on 127.0.0.1:${pgPort} (is the port in use? set EMBEDDED_PG_PORT)`,
    );
    expect(await accepts(pgPort)).toBe(true);
  } finally {
    stranger.close();
  }
});
