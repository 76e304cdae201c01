// `pnpm start` (what `./run start` runs) as an operator stops it: Ctrl-C reaches the whole process group
// while the API may be busy (10,000 live sessions keep its event loop working), and the API still stops as
// it should: its own shutdown (sessions checkpointed, its children stopped), not a kill.
import { readFileSync, readdirSync, readlinkSync } from 'node:fs';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startProcess } from '@strm/testing';
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

it('stops through its own shutdown on Ctrl-C, even while it cannot answer for a moment', async () => {
  const dataDir = await mkdtemp(join(tmpdir(), 'strm-start-'));
  cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
  // mkdtemp makes it private; the embedded server runs as the user postgres when we are root.
  await chmod(dataDir, 0o755);
  const port = await freePort();
  const pgPort = await freePort();
  const bin = [join(apiDir, 'node_modules', '.bin'), join(apiDir, '..', '..', 'node_modules', '.bin')];
  // As pnpm runs the script: a shell, the packages' binaries first on the PATH. No chain: this is about stopping.
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
    },
    group: true,
    label: 'pnpm start',
    timeoutMs: 120_000,
  });
  cleanups.push(() => started.stop(10_000));
  const api = listenerPid(port);

  // The API's event loop held for half a second (a stopped process answers nothing, as a busy one), then
  // Ctrl-C: SIGINT to the whole group, as a terminal sends it.
  process.kill(api, 'SIGSTOP');
  process.kill(-started.child.pid!, 'SIGINT');
  await new Promise((resolve) => setTimeout(resolve, 500));
  try {
    process.kill(api, 'SIGCONT');
  } catch {
    // Gone already: something killed it while it could not answer (what this test is about).
  }

  await started.exited;
  await expect.poll(() => started.output(), { timeout: 30_000 }).toContain('"msg":"stopped"');
  expect(started.output()).toContain('"signal":"SIGINT","msg":"shutting down"');
  expect(await accepts(port)).toBe(false);
  await expect.poll(() => accepts(pgPort), { timeout: 30_000 }).toBe(false);
});
