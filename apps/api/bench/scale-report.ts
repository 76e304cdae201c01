// bench:scale's tables: each setup's figures, the CPU of every process over a window, CPU per update, and
// whether each capped instance's cap was what held it back (its group's cpu.stat).
import { cpus } from 'node:os';
import type { CpuNow, Result } from './scale-cluster.ts';

export const f = (n: number, d = 0) => (Number.isFinite(n) ? n.toFixed(d) : 'n/a');
/** Percent of one core between two CPU readings (by default those around the measured window). */
export type Window = { before: CpuNow; after: CpuNow };
export const pct = (w: Window, pick: (c: CpuNow) => number) =>
  ((pick(w.after) - pick(w.before)) / ((w.after.at - w.before.at) / 1000)) * 100;

export interface ReportOptions {
  /** The cap in cores, 0 when uncapped. */
  cap: number;
  /** The most instances of any setup (rows of the CPU table). */
  most: number;
  clientProcesses: number;
}

export function cpuRows(r: Window & { instances: number }, o: ReportOptions) {
  const rows: Array<[string, number]> = Array.from({ length: o.most }, (_v, i) => [
    `API instance ${i + 1}`,
    i < r.instances ? pct(r, (c) => c.servers[i]!) : Number.NaN,
  ]);
  rows.push(
    [`load generator (${o.clientProcesses} client processes)`, pct(r, (c) => c.clients)],
    ['PostgreSQL (embedded, all backends)', pct(r, (c) => c.postgres)],
    ['Redis (shared with other sessions)', pct(r, (c) => c.redis)],
    ['this benchmark process', pct(r, (c) => c.bench)],
  );
  const machineBusy = pct(r, (c) => c.machine.busy);
  const ours = rows.reduce((n, [, v]) => n + (Number.isFinite(v) ? v : 0), 0);
  rows.push(
    ['everything else (other sessions, CI)', machineBusy - ours],
    ['stolen by the hypervisor', pct(r, (c) => c.machine.steal)],
  );
  const capacity = pct(r, (c) => c.machine.total);
  return { rows, machineBusy, capacity };
}

const head = (label: string, cells: string[]) =>
  console.log(`  ${label.padEnd(44)}${cells.map((c) => c.padStart(14)).join('')}`);

function cpuTable(title: string, cpu: Array<ReturnType<typeof cpuRows>>) {
  console.log(`  ${title}, % of one core:`);
  for (const [label] of cpu[0]!.rows) {
    head(
      `  ${label}`,
      cpu.map((c) => f(c.rows.find(([l]) => l === label)?.[1] ?? Number.NaN)),
    );
  }
  head(
    '  machine busy / all cores',
    cpu.map((c) => `${f(c.machineBusy)}/${f(c.capacity)}`),
  );
}

/** CPU milliseconds per 1,000 updates delivered: of the instances, and of the rest of the benchmark. */
const perThousand = (r: Result, cpuPercent: number) => (cpuPercent * 10) / (r.updatesPerSecond / 1000);
export const apiCost = (r: Result) =>
  perThousand(
    r,
    r.before.servers.reduce((n, _s, i) => n + pct(r, (c) => c.servers[i]!), 0),
  );
export const restCost = (r: Result) =>
  perThousand(
    r,
    pct(r, (c) => c.clients) +
      pct(r, (c) => c.postgres) +
      (Number.isFinite(pct(r, (c) => c.redis)) ? pct(r, (c) => c.redis) : 0),
  );

/** Whether each instance's cap held it back in the window: it used (nearly) all of it, throttled most periods. */
export function capLines(r: Result, cap: number) {
  return r.throttled.map((t, i) => {
    const used = pct(r, (c) => c.servers[i]!);
    if (!t) return { limited: false, text: `instance ${i + 1}: uncapped, ${f(used)}% of a core` };
    const share = t.throttledPeriods / Math.max(1, t.periods);
    const limited = used >= 0.9 * cap * 100 && share >= 0.5;
    return {
      limited,
      text: `instance ${i + 1}: ${f(used)}% of a core against a ${f(cap * 100)}% cap, throttled in ${t.throttledPeriods} of ${t.periods} periods (${f(100 * share)}%), held back ${f(t.throttledSeconds, 1)} s: ${limited ? 'the cap was the limit' : 'not held back by the cap'}`,
    };
  });
}

/** One column per result: the figures, the CPU tables, the CPU per update. Returns the CPU rows. */
export function printResults(results: Result[], o: ReportOptions, title = (r: Result) => `${r.instances}×`) {
  for (const r of results) {
    // Refusals, disconnections and sessions ended early, by cause (none when all went well).
    if (Object.keys(r.reasons).length) console.log(`  ${title(r)}: ${JSON.stringify(r.reasons)}`);
  }
  head('', results.map(title));
  const line = (label: string, cell: (r: Result) => string) => head(label, results.map(cell));
  line('streamers offered', (r) => String(r.offered));
  line('streams started / refused', (r) => `${r.started}/${r.errors}`);
  line('sessions live (sum of instances)', (r) => f(r.live));
  line(`stream starts per second (ramp${o.cap ? ', uncapped' : ''})`, (r) => f(r.startsPerSecond));
  line('mining-updates due per second', (r) => f(r.duePerSecond));
  line('mining-updates delivered per second', (r) => f(r.updatesPerSecond));
  line('lateness p50 (ms)', (r) => f(r.p50));
  line('lateness p99 (ms)', (r) => f(r.p99));
  line('event-loop delay, mean / max (ms, worst instance)', (r) => `${f(r.lagMeanMs)}/${f(r.lagMaxMs)}`);
  // Capped, the streams are started uncapped and in steps: their CPU is not part of the comparison.
  if (!o.cap) {
    cpuTable(
      'CPU during the ramp (stream starts)',
      results.map((r) => cpuRows({ ...r.ramp, instances: r.instances }, o)),
    );
  }
  const cpu = results.map((r) => cpuRows(r, o));
  cpuTable('CPU over the measured window', cpu);
  line('API CPU ms per 1,000 updates delivered', (r) => f(apiCost(r), 1));
  line('clients + PostgreSQL + Redis CPU ms per 1,000', (r) => f(restCost(r), 1));
  return cpu;
}

/** Uncapped (no CPU groups): what the measured per-update costs imply with a core per instance. */
export function printUncappedBound(one: Result, two: Result) {
  // One instance saturates one core; two can use every core only alongside the clients, PostgreSQL and
  // Redis, which need CPU in proportion to the updates.
  const cores = cpus().length;
  const api = (apiCost(one) + apiCost(two)) / 2;
  const rest = (restCost(one) + restCost(two)) / 2;
  const bound = Math.min(2, (cores * api) / (api + rest));
  // Not a measurement of two instances side by side but what the costs measured here imply when each
  // instance has a core of its own and the clients run elsewhere.
  console.log(
    `  API CPU per update with two instances / with one: ${f(apiCost(two) / apiCost(one), 2)}; with a core per instance and the clients elsewhere that is ${f((2 * apiCost(one)) / apiCost(two), 2)}× (computed from the costs, not measured)`,
  );
  console.log(
    `  at best on ${cores} idle cores: one instance ${f(1e6 / api)} updates/s (a core), two ${f(Math.min(2e6 / api, (cores * 1e6) / (api + rest)))} updates/s (the cores shared with the clients and databases): ${f(bound, 2)}×`,
  );
}
