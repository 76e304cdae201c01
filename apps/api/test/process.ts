import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const apiDir = fileURLToPath(new URL('..', import.meta.url));

export interface RunningApi {
  url: string;
  child: ChildProcess;
  output(): string;
  stop(): Promise<number | null>;
}

/** Starts the real API process (`pnpm start`'s entry point) and waits for its ready line. */
export function startApiProcess(env: Record<string, string>, timeoutMs = 90_000): Promise<RunningApi> {
  return startApiCommand(
    [process.execPath, '--import', 'tsx', 'src/main.ts'],
    apiDir,
    { ...process.env, NODE_ENV: 'development', LOG_LEVEL: 'warn', ...env },
    timeoutMs,
  );
}

/** Runs an API start command (e.g. an image's) with exactly this environment; waits for its ready line. */
export function startApiCommand(
  [command, ...args]: string[],
  cwd: string,
  env: Record<string, string | undefined>,
  timeoutMs = 90_000,
): Promise<RunningApi> {
  // Its own process group, so a start that times out takes what it spawned (e.g. a cargo build) with it.
  const child = spawn(command!, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  let out = '';
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      process.kill(-child.pid!, 'SIGKILL');
      reject(new Error(`API did not start in ${timeoutMs} ms:\n${out}`));
    }, timeoutMs);
    const onData = (chunk: Buffer) => {
      out += chunk.toString();
      const match = /ready at (http:\/\/\S+)/.exec(out);
      if (match) {
        clearTimeout(timer);
        resolve({
          url: match[1]!,
          child,
          output: () => out,
          stop: async () => {
            child.kill('SIGTERM');
            return exited;
          },
        });
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`API exited with ${code} before it was ready:\n${out}`));
    });
  });
}

export function runApiToExit(
  env: Record<string, string | undefined>,
  [command, ...args]: string[] = [process.execPath, '--import', 'tsx', 'src/main.ts'],
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
