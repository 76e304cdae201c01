import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { InstanceLockedError, lockDataDir } from './instance-lock.ts';

// The file system as the lock sees it, with two seams: `between` runs another start at the moment this one
// moves or removes the lock file (the interleaving two racing processes can have), and `noProc` makes /proc
// unreadable (a machine without it).
const seams = vi.hoisted(() => ({
  between: undefined as (() => void) | undefined,
  noProc: false,
}));
vi.mock('node:fs', async (original) => {
  const fs = await original<typeof import('node:fs')>();
  const racing =
    <A extends unknown[], R>(real: (...args: A) => R) =>
    (...args: A): R => {
      const run = seams.between;
      if (run && String(args[0]).endsWith('api.lock')) {
        seams.between = undefined;
        run();
      }
      return real(...args);
    };
  return {
    ...fs,
    rmSync: racing(fs.rmSync),
    renameSync: racing(fs.renameSync),
    readFileSync: ((path: unknown, ...rest: unknown[]) => {
      if (seams.noProc && String(path).startsWith('/proc/'))
        throw Object.assign(new Error('ENOENT'), { code: 'ENOENT' });
      return (fs.readFileSync as (...a: unknown[]) => unknown)(path, ...rest);
    }) as typeof fs.readFileSync,
  };
});

let dir: string;
let other: ChildProcess | undefined;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'strm-lock-'));
});
afterEach(async () => {
  seams.between = undefined;
  seams.noProc = false;
  other?.kill('SIGKILL');
  other = undefined;
  await rm(dir, { recursive: true, force: true });
});

/** Another live process (standing in for a running API). */
async function otherProcess(): Promise<ChildProcess> {
  other = spawn('sleep', ['60'], { stdio: 'ignore' });
  await new Promise((resolve) => other!.once('spawn', resolve));
  return other;
}

describe('lockDataDir', () => {
  it('refuses a data directory another live API holds, naming its pid', async () => {
    const running = await otherProcess();
    lockDataDir(dir, running.pid);
    expect(() => lockDataDir(dir)).toThrow(InstanceLockedError);
    expect(() => lockDataDir(dir)).toThrow(`STRM is already running on ${dir} (pid ${running.pid})`);
  });

  it('takes over the lock of an API that was killed (SIGKILL leaves the file)', async () => {
    const crashed = await otherProcess();
    lockDataDir(dir, crashed.pid);
    crashed.kill('SIGKILL');
    await new Promise((resolve) => crashed.once('exit', resolve));
    const release = lockDataDir(dir);
    expect(JSON.parse(await readFile(join(dir, 'api.lock'), 'utf8')).pid).toBe(process.pid);
    release();
  });

  it('takes over a lock whose pid now belongs to another process (started later than the lock says)', async () => {
    const stranger = await otherProcess();
    await writeFile(join(dir, 'api.lock'), JSON.stringify({ pid: stranger.pid, started: '1' }));
    const release = lockDataDir(dir);
    // The lock is now this process's: the file names it, and another process's start there is refused.
    expect(JSON.parse(await readFile(join(dir, 'api.lock'), 'utf8')).pid).toBe(process.pid);
    expect(() => lockDataDir(dir, process.ppid)).toThrow(
      `STRM is already running on ${dir} (pid ${process.pid})`,
    );
    release();
    await expect(readFile(join(dir, 'api.lock'))).rejects.toThrow(/ENOENT/);
  });

  it('gives the lock up when released, so the next start takes it; never removes a lock it no longer holds', async () => {
    const release = lockDataDir(dir);
    release();
    await expect(readFile(join(dir, 'api.lock'))).rejects.toThrow(/ENOENT/);
    const stale = lockDataDir(dir);
    const running = await otherProcess();
    await writeFile(join(dir, 'api.lock'), JSON.stringify({ pid: running.pid, started: 'x' }));
    stale();
    expect(JSON.parse(await readFile(join(dir, 'api.lock'), 'utf8')).pid).toBe(running.pid);
  });

  it('two starts racing for a crashed API’s lock: exactly one takes it, the other is refused naming it', async () => {
    const crashed = await otherProcess();
    lockDataDir(dir, crashed.pid);
    crashed.kill('SIGKILL');
    await new Promise((resolve) => crashed.once('exit', resolve));
    // The second start (another live process's) runs whole while this one is about to take the dead lock over.
    const second = spawn('sleep', ['60'], { stdio: 'ignore' });
    await new Promise((resolve) => second.once('spawn', resolve));
    try {
      let secondTook = false;
      seams.between = () => {
        lockDataDir(dir, second.pid);
        secondTook = true;
      };
      expect(() => lockDataDir(dir)).toThrow(`STRM is already running on ${dir} (pid ${second.pid})`);
      expect(secondTook).toBe(true);
      expect(JSON.parse(await readFile(join(dir, 'api.lock'), 'utf8')).pid).toBe(second.pid);
    } finally {
      second.kill('SIGKILL');
    }
  });

  it('without /proc, holds the lock of a live process and takes over a dead one’s', async () => {
    seams.noProc = true;
    const running = await otherProcess();
    await writeFile(join(dir, 'api.lock'), JSON.stringify({ pid: running.pid, started: null }));
    expect(() => lockDataDir(dir)).toThrow(`STRM is already running on ${dir} (pid ${running.pid})`);
    running.kill('SIGKILL');
    await new Promise((resolve) => running.once('exit', resolve));
    const release = lockDataDir(dir);
    expect(JSON.parse(await readFile(join(dir, 'api.lock'), 'utf8')).pid).toBe(process.pid);
    release();
  });
});
