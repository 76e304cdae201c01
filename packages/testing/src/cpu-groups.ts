// CPU groups for the benchmarks: a process in its own kernel CPU group, capped at a share of one core (the
// CFS bandwidth controller), as a horizontally scaled service gives each instance a fixed CPU share. cgroup
// v2 (`cpu.max`) where its cpu controller is available, else v1 (`cpu.cfs_quota_us`); both need the right to
// create groups (root, or a delegated subtree). `cpu.stat` tells whether the cap was what held it back.
import { appendFileSync, existsSync, mkdirSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const PERIOD_US = 100_000;

export interface Throttling {
  /** Enforcement periods in which the group ran, and those in which it used up its quota. */
  periods: number;
  throttledPeriods: number;
  /** Seconds its processes were held back with work to do. */
  throttledSeconds: number;
}

export interface CpuGroup {
  readonly path: string;
  /** Moves the process (every thread) into the group; its children started later follow. */
  add(pid: number): void;
  /**
   * The cap in cores (0.4 = 40 % of one core), or null for none, enforced over periods of `periodUs` (the
   * kernel's default 100 ms; a shorter period spreads the slowdown more evenly over a short task).
   */
  cap(cores: number | null, periodUs?: number): void;
  throttling(): Throttling;
  /** Removes the group, first moving any process still in it back to the root group. */
  remove(): void;
}

export type CpuGroups =
  | { ok: true; version: 'v1' | 'v2'; root: string; create(name: string): CpuGroup }
  | { ok: false; reason: string };

const V1_ROOT = '/sys/fs/cgroup/cpu';
const V2_ROOTS = ['/sys/fs/cgroup/unified', '/sys/fs/cgroup'];

/** The first hierarchy where a group can be made and capped, or why none can. */
export function cpuGroups(): CpuGroups {
  const reasons: string[] = [];
  for (const root of V2_ROOTS) {
    const controllers = join(root, 'cgroup.controllers');
    if (!existsSync(controllers)) continue;
    if (!readFileSync(controllers, 'utf8').split(/\s+/).includes('cpu')) {
      reasons.push(`cgroup v2 at ${root} has no cpu controller`);
      continue;
    }
    try {
      // Children get the cpu controller only if the parent hands it down.
      const subtree = join(root, 'cgroup.subtree_control');
      if (!readFileSync(subtree, 'utf8').split(/\s+/).includes('cpu')) writeFileSync(subtree, '+cpu');
      return probe('v2', root, reasons);
    } catch (err) {
      reasons.push(`cgroup v2 at ${root}: ${(err as Error).message}`);
    }
  }
  if (existsSync(join(V1_ROOT, 'cpu.cfs_quota_us'))) return probe('v1', V1_ROOT, reasons);
  reasons.push(`no cgroup v1 cpu controller at ${V1_ROOT}`);
  return { ok: false, reason: reasons.join('; ') };
}

function probe(version: 'v1' | 'v2', root: string, reasons: string[]): CpuGroups {
  const create = (name: string) => group(version, root, join(root, name));
  try {
    create(`strm-bench-probe-${process.pid}`).remove();
  } catch (err) {
    reasons.push(`cannot create a CPU group under ${root}: ${(err as Error).message}`);
    return { ok: false, reason: reasons.join('; ') };
  }
  return { ok: true, version, root, create };
}

function group(version: 'v1' | 'v2', root: string, path: string): CpuGroup {
  mkdirSync(path);
  const write = (file: string, value: string) => writeFileSync(join(path, file), value);
  const stat = () =>
    Object.fromEntries(
      readFileSync(join(path, 'cpu.stat'), 'utf8')
        .trim()
        .split('\n')
        .map((l) => l.split(' '))
        .map(([k, v]) => [k, Number(v)]),
    ) as Record<string, number>;
  return {
    path,
    add(pid) {
      appendFileSync(join(path, 'cgroup.procs'), String(pid));
    },
    cap(cores, periodUs = PERIOD_US) {
      const quota = cores === null ? -1 : Math.round(cores * periodUs);
      if (version === 'v2') write('cpu.max', `${quota < 0 ? 'max' : quota} ${periodUs}`);
      else {
        write('cpu.cfs_period_us', String(periodUs));
        write('cpu.cfs_quota_us', String(quota));
      }
    },
    throttling() {
      const s = stat();
      return {
        periods: s.nr_periods ?? 0,
        throttledPeriods: s.nr_throttled ?? 0,
        // v1 counts nanoseconds, v2 microseconds.
        throttledSeconds: version === 'v2' ? (s.throttled_usec ?? 0) / 1e6 : (s.throttled_time ?? 0) / 1e9,
      };
    },
    remove() {
      for (const pid of readFileSync(join(path, 'cgroup.procs'), 'utf8').split('\n').filter(Boolean)) {
        try {
          appendFileSync(join(root, 'cgroup.procs'), pid);
        } catch {
          // It exited meanwhile.
        }
      }
      rmdirSync(path);
    },
  };
}
