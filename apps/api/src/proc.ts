// What Linux's /proc says of a process: the embedded PostgreSQL's left-behind check (db/embedded.ts) and the
// data directory's lock (instance-lock.ts) both ask it.
import { readFileSync } from 'node:fs';

/**
 * The process's state letter (`Z`: a zombie, exited and not yet reaped) and the kernel's start time of it
 * (clock ticks since boot: with the pid, it names one process for good); null when /proc has no such
 * process, or there is no /proc.
 */
export function procStat(pid: number): { state: string; startTime: string } | null {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return null;
  }
  // The fields after the command name (which may hold spaces and parentheses) begin after its last ')':
  // state is the line's field 3, starttime its field 22.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return { state: fields[0] ?? '', startTime: fields[19] ?? '' };
}
