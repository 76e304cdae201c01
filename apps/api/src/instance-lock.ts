// One API at a time on a data directory whose embedded PostgreSQL or local chain it runs. A second start
// there (`./run start` in another terminal) would take the first one's stopped-looking PostgreSQL for a
// crashed run's, stop it under the running API, and then fail on the chain's port: it is refused before it
// touches anything (docs/architecture.md#a-services-lifecycle). The lock is a file naming the owner's pid and
// the kernel's start time of that process, so a pid reused after a crash is never taken for the owner.
import { randomBytes } from 'node:crypto';
import { linkSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
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
 * crashed API left is taken over atomically: of several starts racing for it, exactly one gets it. The function
 * returned gives it up (only while it is still this process's).
 */
export function lockDataDir(dataDir: string, pid = process.pid): () => void {
  const file = join(dataDir, LOCK_FILE);
  const mine = JSON.stringify({ pid, started: startTimeOf(pid) });
  for (let attempt = 0; attempt < 5; attempt++) {
    // Created only where there is none: of two starts at the same moment, one wins.
    if (created(file, mine)) {
      return () => {
        try {
          if (readFileSync(file, 'utf8').trim() === mine) rmSync(file, { force: true });
        } catch {
          // already gone
        }
      };
    }
    const held = contentOf(file);
    if (held === null) continue; // removed meanwhile: try again
    const owner = liveOwner(held);
    if (owner !== null && owner !== pid) throw new InstanceLockedError(dataDir, owner);
    // A dead owner's lock is moved aside (a rename: of the starts racing for it, one moves it), never removed
    // by name, which could remove the lock another start has just made. If what was moved is not the lock
    // judged dead (another start replaced it first), it is put back and its owner is found on the next turn.
    const aside = `${file}.${pid}.${randomBytes(6).toString('hex')}`;
    try {
      renameSync(file, aside);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') continue;
      throw err;
    }
    if (contentOf(aside) !== held) {
      try {
        linkSync(aside, file);
      } catch {
        // a third start's lock is there now: its owner is found on the next turn
      }
    }
    rmSync(aside, { force: true });
  }
  throw new Error(`could not take ${file}: another start keeps taking it`);
}

function created(file: string, content: string): boolean {
  try {
    writeFileSync(file, `${content}\n`, { flag: 'wx', mode: 0o600 });
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw err;
  }
}

function contentOf(file: string): string | null {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return null; // gone meanwhile, or not ours to read
  }
}

/** Whether this machine has Linux's /proc (where a pid's start time can be read). */
const hasProc = () => procStat(process.pid) !== null;

/**
 * The pid a lock names when that process is alive and is the one that wrote it; else null. Without /proc the
 * start time cannot be read: any live process with that pid is taken for the owner (a start refused by a
 * reused pid says which, rather than two APIs sharing one directory).
 */
function liveOwner(content: string): number | null {
  let held: { pid?: unknown; started?: unknown };
  try {
    held = JSON.parse(content) as typeof held;
  } catch {
    return null; // a torn or foreign file: nobody holds it
  }
  if (typeof held.pid !== 'number' || !Number.isInteger(held.pid) || held.pid <= 0) return null;
  if (!hasProc()) return alive(held.pid) ? held.pid : null;
  const started = startTimeOf(held.pid);
  return started !== null && started === held.started ? held.pid : null;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
