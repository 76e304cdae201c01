// What a stopped product may have left behind, as a person checks it: a port still answering, a process still
// running with its data directory, a line in its output that reads as a failure. Used by the start-script test
// and the start-stop soak (which runs under tsx, outside vitest: nothing here imports it).
import { readdirSync, readFileSync } from 'node:fs';
import { connect } from 'node:net';

/** Whether something accepts TCP connections on 127.0.0.1:`port`. */
export function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** Processes (other than this one) whose command line names `dir`: the embedded PostgreSQL, the chain. */
export function processesUsing(dir: string): string[] {
  const found: string[] = [];
  for (const pid of readdirSync('/proc').filter((p) => /^\d+$/.test(p))) {
    if (Number(pid) === process.pid) continue;
    try {
      const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
      if (cmdline.includes(dir)) found.push(`${pid}: ${cmdline.slice(0, 160)}`);
    } catch {}
  }
  return found;
}

/**
 * Lines a person reads as a failure: error or fatal level, a package manager's failed command, web3.js's
 * socket errors.
 */
export function errorLines(output: string): string[] {
  return output.split('\n').filter((line) => {
    if (/ERR_PNPM|ELIFECYCLE|Command failed|accountUnsubscribe|ws error/.test(line)) return true;
    try {
      return ((JSON.parse(line) as { level?: number }).level ?? 0) >= 50;
    } catch {
      return false;
    }
  });
}
