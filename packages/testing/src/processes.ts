// Processes as Linux's /proc shows them: the tree, the CPU time each used, resident memory, the machine's
// CPU. For the benchmarks (apps/api/bench, apps/web/bench).
import { readdirSync, readFileSync } from 'node:fs';

/** CPU time of processes, from /proc (Linux): what each process of a benchmark used, and the machine. */
export interface ProcessCpu {
  pid: number;
  ppid: number;
  /** User + system seconds of the process itself. */
  self: number;
  /** Of `self`, the seconds in the kernel (system calls, the network stack on its behalf). */
  system: number;
  /** User + system seconds of its children that have exited and were waited for. */
  reaped: number;
}

const TICKS_PER_SECOND = 100;

export function processTable(): Map<number, ProcessCpu> {
  const table = new Map<number, ProcessCpu>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${name}/stat`, 'utf8');
    } catch {
      continue; // exited meanwhile
    }
    // The command name may hold spaces and parentheses: the fields follow the last ')'.
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    table.set(Number(name), {
      pid: Number(name),
      ppid: Number(f[1]),
      self: (Number(f[11]) + Number(f[12])) / TICKS_PER_SECOND,
      system: Number(f[12]) / TICKS_PER_SECOND,
      reaped: (Number(f[13]) + Number(f[14])) / TICKS_PER_SECOND,
    });
  }
  return table;
}

/** CPU seconds of `pid` and every live descendant (and what their exited children used). */
export function treeCpu(table: Map<number, ProcessCpu>, pid: number, skip: ReadonlySet<number> = new Set()) {
  let total = 0;
  const stack = [pid];
  while (stack.length) {
    const p = table.get(stack.pop()!);
    if (!p) continue;
    total += p.self + p.reaped;
    for (const child of table.values())
      if (child.ppid === p.pid && !skip.has(child.pid)) stack.push(child.pid);
  }
  return total;
}

/** Resident memory of a process in MB, from /proc (what the kernel holds for it, not what it reports). */
export function rssMb(pid: number): number {
  const line = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return line ? Number(line[1]) / 1024 : Number.NaN;
}

/**
 * CPU seconds of the whole machine, all cores (/proc/stat): busy, stolen by the hypervisor (wanted but
 * given to another guest) and the total.
 */
export function machineCpu(): { busy: number; steal: number; total: number } {
  const line = readFileSync('/proc/stat', 'utf8').split('\n')[0]!;
  const [user, nice, system, idle, iowait, irq, softirq, steal] = line.split(/\s+/).slice(1).map(Number);
  const busy = user! + nice! + system! + irq! + softirq!;
  return {
    busy: busy / TICKS_PER_SECOND,
    steal: steal! / TICKS_PER_SECOND,
    total: (busy + steal! + idle! + iowait!) / TICKS_PER_SECOND,
  };
}
