// `pnpm start` (what `./run start` runs) as an operator stops it: Ctrl-C reaches the whole process group
// while the API may be busy (10,000 live sessions keep its event loop working), and the API still stops as
// it should: its own shutdown (sessions checkpointed, its children stopped), not a kill.
import { readFileSync, readdirSync, readlinkSync } from 'node:fs';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type StartedProcess, startProcess } from '@strm/testing';
import { afterAll, expect, it } from 'vitest';
import { freePort } from './ports.ts';

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

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/**
 * `pnpm start`'s command in a shell, as pnpm runs it (the packages' binaries first on the PATH), in its own
 * process group as a terminal's job, on an embedded PostgreSQL. No chain: this is about stopping.
 */
async function startApi(env: Record<string, string> = {}) {
  const dataDir = await mkdtemp(join(tmpdir(), 'strm-start-'));
  cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
  // mkdtemp makes it private; the embedded server runs as the user postgres when we are root.
  await chmod(dataDir, 0o755);
  const port = await freePort();
  const pgPort = await freePort();
  const bin = [join(apiDir, 'node_modules', '.bin'), join(apiDir, '..', '..', 'node_modules', '.bin')];
  const started = await startProcess('sh', ['-c', startScript], /ready at (http:\/\/\S+)/, {
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
  return { started, port, pgPort };
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
