// One API at a time on a data directory whose embedded PostgreSQL or local chain it runs. A second start
// there (`./run start` in another terminal) would take the first one's stopped-looking PostgreSQL for a
// crashed run's, stop it under the running API, and then fail on the chain's port: it is refused before it
// touches anything (docs/architecture.md#a-services-lifecycle). The lock is a file naming the owner's pid and
// the kernel's start time of that process, so a pid reused after a crash is never taken for the owner.
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { procStat } from './proc.ts';

const LOCK_FILE = 'api.lock';

/** The kernel's start time of `pid`, or null when there is no such process (or only its zombie). */
function startTimeOf(pid: number): string | null {
  const stat = procStat(pid);
  return stat && stat.state !== 'Z' ? stat.startTime : null;
}

export class InstanceLockedError extends Error {
  constructor(
    readonly dataDir: string,
    readonly pid: number,
  ) {
    super(
      `STRM is already running on ${dataDir} (pid ${pid}): stop it first (Ctrl-C in its terminal), or give this one another DATA_DIR`,
    );
    this.name = 'InstanceLockedError';
  }
}

/**
 * Takes the data directory for this process, or throws InstanceLockedError naming the live owner. A lock a
 * crashed API left is taken over. The function returned gives it up (only while it is still this process's).
 */
export function lockDataDir(dataDir: string, pid = process.pid): () => void {
  const file = join(dataDir, LOCK_FILE);
  const mine = JSON.stringify({ pid, started: startTimeOf(pid) });
  // Created only where there is none (two starts at the same moment: one wins); a crashed API's is removed.
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      writeFileSync(file, `${mine}\n`, { flag: 'wx', mode: 0o600 });
      return () => {
        try {
          if (readFileSync(file, 'utf8').trim() === mine) rmSync(file, { force: true });
        } catch {
          // already gone
        }
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    const owner = liveOwner(file);
    if (owner !== null && owner !== pid) throw new InstanceLockedError(dataDir, owner);
    rmSync(file, { force: true });
  }
  throw new Error(`could not take ${file}: another start keeps taking it`);
}

/** The pid the lock file names when that process is alive and is the one that wrote it; else null. */
function liveOwner(file: string): number | null {
  try {
    const held = JSON.parse(readFileSync(file, 'utf8')) as { pid?: unknown; started?: unknown };
    if (typeof held.pid !== 'number' || !Number.isInteger(held.pid) || held.pid <= 0) return null;
    const started = startTimeOf(held.pid);
    return started !== null && started === held.started ? held.pid : null;
  } catch {
    return null; // gone meanwhile, or not ours to read: nobody holds it
  }
}
