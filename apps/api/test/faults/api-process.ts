// The API as `pnpm start` runs it, a real process the suite can kill: its /health and its child processes
// (the embedded PostgreSQL's postmaster, the local chain).
import { type ChildProcess, execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { freePort, startProcess } from '@strm/testing';

const apiDir = fileURLToPath(new URL('../..', import.meta.url));
const repoRoot = fileURLToPath(new URL('../../../..', import.meta.url));

export interface ApiProcess {
  label: string;
  url: string;
  port: number;
  env: Record<string, string>;
  child: ChildProcess;
  /** Exits the suite did not cause. */
  unexpectedExits: number;
  /** Lines logged as an unhandled promise rejection. */
  unhandled(): number;
  output(): string;
  kill(signal: NodeJS.Signals): void;
  stop(): Promise<void>;
  alive(): boolean;
}

/**
 * The API process: its entry point, or (`viaRunStart`) the whole of `./run start` as a person types it
 * (install and build, up to date here, then the API in place of the script).
 */
export async function startApi(
  label: string,
  env: Record<string, string>,
  options: { viaRunStart?: boolean } = {},
): Promise<ApiProcess> {
  const port = Number(env.PORT ?? (await freePort()));
  const fullEnv = { ...env, PORT: String(port) };
  const [command, args, cwd] = options.viaRunStart
    ? ['./run', ['start'], repoRoot]
    : [process.execPath, ['--import', 'tsx', 'src/main.ts'], apiDir];
  const started = await startProcess(command, args, /ready at http/, {
    cwd,
    env: { ...process.env, NODE_ENV: 'development', LOG_LEVEL: 'warn', ...fullEnv },
    group: true,
    label,
  });
  const { child } = started;
  let expected = false;
  let exited = false;
  const api: ApiProcess = {
    label,
    url: `http://127.0.0.1:${port}`,
    port,
    env: fullEnv,
    child,
    unexpectedExits: 0,
    unhandled: () =>
      started
        .output()
        .split('\n')
        .filter((l) => l.includes('unhandled promise rejection')).length,
    output: started.output,
    kill(signal) {
      expected = true;
      child.kill(signal);
    },
    async stop() {
      if (exited) return;
      expected = true;
      await started.stop(15_000);
    },
    alive: () => !exited,
  };
  void started.exited.then(() => {
    exited = true;
    if (!expected) api.unexpectedExits++;
  });
  return api;
}

interface HealthBody {
  status?: string;
  database?: { state?: string };
  chain?: { state?: string };
}

/** GET /health: its answer and how long it took. */
export async function health(api: ApiProcess) {
  const started = performance.now();
  try {
    const res = await fetch(`${api.url}/api/v1/health`, { signal: AbortSignal.timeout(5000) });
    return {
      ms: performance.now() - started,
      body: (await res.json()) as HealthBody,
    };
  } catch {
    return { ms: performance.now() - started, body: undefined };
  }
}

/** The API's child processes by command name (the embedded PostgreSQL's postmaster, the local chain). */
export function childPid(api: ApiProcess, command: 'postgres' | 'strm-local-chai'): number {
  const out = execFileSync('ps', ['--ppid', String(api.child.pid), '-o', 'pid=,comm=']).toString();
  const line = out
    .split('\n')
    .map((l) => l.trim().split(/\s+/))
    .find(([, comm]) => comm === command);
  if (!line) throw new Error(`${api.label} has no ${command} child`);
  return Number(line[0]);
}
