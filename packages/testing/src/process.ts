// Starting a process the suites talk to (the API, the whole product, the local chain's CLI) and waiting for
// the line it prints once it serves: one helper instead of one per suite.
import { type ChildProcess, spawn } from 'node:child_process';

export interface StartOptions {
  cwd?: string;
  /** The whole environment (default: this process's). */
  env?: Record<string, string | undefined>;
  /** How long it may take to print its ready line (default 180 s: a cold local-chain build). */
  timeoutMs?: number;
  /**
   * Its own process group, so that a kill takes what it spawned (e.g. a cargo build or the local chain) with
   * it; without, those children outlive a SIGKILL.
   */
  group?: boolean;
  /** Named in the errors (default: the command). */
  label?: string;
}

export interface StartedProcess {
  child: ChildProcess;
  /** The ready line's match (its groups, e.g. the URL it serves). */
  ready: RegExpExecArray;
  /** Everything it printed, stdout and stderr, since it started (still collected after it is ready). */
  output(): string;
  /** Its exit code once it has exited (null when a signal ended it). */
  exited: Promise<number | null>;
  /** SIGTERM and its exit code; SIGKILL (to its group when it has one) if still running after `killAfterMs`. */
  stop(killAfterMs?: number): Promise<number | null>;
}

/**
 * Spawns `command args` and resolves once its output has a line matching `readyLine`. Rejects, with what it
 * printed, when it exits first or is not ready within the timeout (it is then stopped, SIGKILL after 10 s).
 */
export async function startProcess(
  command: string,
  args: readonly string[],
  readyLine: RegExp | string,
  options: StartOptions = {},
): Promise<StartedProcess> {
  const { timeoutMs = 180_000, group = false, label = command } = options;
  const child = spawn(command, args, {
    cwd: options.cwd,
    env: options.env ?? process.env,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: group,
  });
  let out = '';
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const kill = () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    if (group && child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
    else child.kill('SIGKILL');
  };
  const stop = async (killAfterMs?: number) => {
    child.kill('SIGTERM');
    const killer = killAfterMs === undefined ? undefined : setTimeout(kill, killAfterMs);
    const code = await exited;
    clearTimeout(killer);
    return code;
  };
  const pattern = typeof readyLine === 'string' ? new RegExp(escapeRegExp(readyLine)) : readyLine;
  const ready = await new Promise<RegExpExecArray>((resolve, reject) => {
    const timer = setTimeout(() => {
      reject(new Error(`${label} was not ready in ${timeoutMs} ms:\n${out}`));
    }, timeoutMs);
    const onData = (chunk: Buffer) => {
      out += chunk.toString();
      // Whole lines only: a URL cut between two chunks is not the URL.
      const match = pattern.exec(out.slice(0, out.lastIndexOf('\n') + 1));
      if (match) {
        clearTimeout(timer);
        resolve(match);
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`${label} exited with ${code} before it was ready:\n${out}`));
    });
  }).catch(async (err: unknown) => {
    // Not left running behind a failed suite (it may be blocked where a SIGTERM handler cannot run).
    await stop(10_000);
    throw err;
  });
  return { child, ready, output: () => out, exited, stop };
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
