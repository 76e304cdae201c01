import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { startProcess } from '@strm/testing';
import { inject } from 'vitest';

const apiDir = fileURLToPath(new URL('../..', import.meta.url));

/** `pnpm start`'s entry point, src/main.ts, as the suite's bundle of it (global-setup.ts, bundle.ts). */
function apiMain(): string[] {
  return [process.execPath, inject('apiMain')];
}

export interface RunningApi {
  url: string;
  child: ChildProcess;
  output(): string;
  stop(): Promise<number | null>;
}

/** Starts the real API process (`pnpm start`'s entry point) and waits for its ready line. */
export function startApiProcess(env: Record<string, string>, timeoutMs = 90_000): Promise<RunningApi> {
  return startApiCommand(
    apiMain(),
    apiDir,
    { ...process.env, NODE_ENV: 'development', LOG_LEVEL: 'warn', ...env },
    timeoutMs,
  );
}

/** Runs an API start command (e.g. an image's) with exactly this environment; waits for its ready line. */
export async function startApiCommand(
  [command, ...args]: string[],
  cwd: string,
  env: Record<string, string | undefined>,
  timeoutMs = 90_000,
): Promise<RunningApi> {
  // Its own process group, so a start that times out takes what it spawned (e.g. a cargo build) with it.
  const api = await startProcess(command!, args, /ready at (http:\/\/\S+)/, {
    cwd,
    env,
    timeoutMs,
    group: true,
    label: 'API',
  });
  return { url: api.ready[1]!, child: api.child, output: api.output, stop: () => api.stop() };
}

export function runApiToExit(
  env: Record<string, string | undefined>,
  [command, ...args]: string[] = apiMain(),
  cwd = apiDir,
): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(command!, args, {
    cwd,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (c: Buffer) => {
    stderr += c.toString();
  });
  return new Promise((resolve) => child.once('exit', (code) => resolve({ code, stderr })));
}
