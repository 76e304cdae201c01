// Benchmark: N simulated live streamers on one server process, on the real chain path (every streamer's
// record an account on the local chain, read at start and watched through PubSub for the whole session). Prints connections held, mining-update
// lateness p50/p99, the server's mining-updates per CPU-second, its RSS, and database transactions per
// session-minute, next to a bare Socket.IO server sending the same messages on the same machine (the ratio
// is the figure). Measured from outside: CPU time and RSS from /proc (the API process alone; its embedded
// PostgreSQL apart), transactions from PostgreSQL's own count (pg_stat_database), updates as received by the
// clients.
//   pnpm bench:engine   (BENCH_STREAMERS=10000, BENCH_SECONDS=60, BENCH_CLIENT_PROCESSES=2,
//                        BENCH_CPU_PROF=<dir>: V8 CPU profiles of both servers over the measured window,
//                        with BENCH_HEAP_SNAPSHOT=1 their heap snapshots after it (=2: a second
//                        one an update interval later, to diff), with BENCH_ALLOCATIONS=1
//                        the window's allocations by call site, collected ones too, as .heapprofile
//                        (BENCH_ALLOCATIONS=promoted: only those that outlived the young generation);
//                        BENCH_PERF=<dir>: Linux perf samples of both servers over the window, the kernel's
//                        side included, as <dir>/engine-N.perf.data; add BENCH_NODE_FLAGS=--perf-basic-prof
//                        for JavaScript's frame names)
import { spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import {
  ask,
  type BenchStreamer,
  forkBench,
  type Message,
  nextMessage,
  percentile,
  processTable,
  rssMb,
  startClients,
  transactions,
  treeCpu,
} from './support.ts';

/** CPU seconds of the server process itself and of its children (the engine's embedded PostgreSQL). */
function serverCpu(pid: number) {
  const table = processTable();
  const self = table.get(pid)?.self ?? Number.NaN;
  const system = table.get(pid)?.system ?? Number.NaN;
  return { self, system, children: treeCpu(table, pid) - self, at: Date.now() };
}

const count = Number(process.env.BENCH_STREAMERS ?? 10_000);
const seconds = Number(process.env.BENCH_SECONDS ?? 60);
const clientProcesses = Number(process.env.BENCH_CLIENT_PROCESSES ?? 2);
const intervalMs = Number(process.env.BENCH_UPDATE_MS ?? 5000);
const profileDir = process.env.BENCH_CPU_PROF ? resolve(process.env.BENCH_CPU_PROF) : undefined;
if (profileDir) mkdirSync(profileDir, { recursive: true });
const perfDir = process.env.BENCH_PERF ? resolve(process.env.BENCH_PERF) : undefined;
if (perfDir) mkdirSync(perfDir, { recursive: true });

/** `perf record` of `pid` until the returned function is called (it resolves once the file is written). */
function perfRecord(pid: number, file: string): () => Promise<void> {
  const perf = spawn('perf', ['record', '-q', '-k', '1', '-F', '499', '-g', '-p', String(pid), '-o', file], {
    stdio: 'inherit',
  });
  const exited = new Promise<void>((r) => perf.once('exit', () => r()));
  return () => {
    perf.kill('SIGINT');
    return exited;
  };
}

async function scenario(bare: boolean) {
  const server = forkBench(
    './engine-server.ts',
    { ...process.env, BENCH_BARE: bare ? '1' : '0', BENCH_STREAMERS: String(count) },
    // BENCH_NODE_FLAGS: V8 and Node flags for both servers (those NODE_OPTIONS refuses, too).
    { execArgv: process.env.BENCH_NODE_FLAGS?.split(' ').filter(Boolean) ?? [] },
  );
  const ready = (await nextMessage(server, 'ready')) as Message & {
    port: number;
    wallets: BenchStreamer[];
    databaseUrl?: string;
    chainRecordsMs?: number;
  };
  if (ready.chainRecordsMs !== undefined)
    console.log(`  ${count} streamer records written on the local chain in ${ready.chainRecordsMs} ms`);
  const { clients, rampSeconds } = await startClients(
    clientProcesses,
    [ready.port],
    ready.wallets,
    intervalMs,
  );
  // One update period to settle, then measure.
  await new Promise((r) => setTimeout(r, intervalMs));
  const statsBefore = await ask(server, 'stats');
  const xactsBefore = ready.databaseUrl ? await transactions(ready.databaseUrl) : Number.NaN;
  const cpuBefore = serverCpu(server.pid!);
  for (const c of clients) c.send({ type: 'measure' });
  if (profileDir) server.send({ type: 'profile-start' });
  const perfStop = perfDir
    ? perfRecord(server.pid!, join(perfDir, `${bare ? 'bare' : 'engine'}-${count}.perf.data`))
    : undefined;
  const t0 = Date.now();
  await new Promise((r) => setTimeout(r, seconds * 1000));
  const reports = await Promise.all(clients.map((c) => ask(c, 'report')));
  // Read before the profile is written: its serialisation is the profiler's work, not the server's.
  const cpuAfter = serverCpu(server.pid!);
  const elapsed = (Date.now() - t0) / 1000;
  await perfStop?.();
  if (profileDir) {
    const written = nextMessage(server, 'profile-stop');
    server.send({
      type: 'profile-stop',
      file: join(profileDir, `${bare ? 'bare' : 'engine'}-${count}.cpuprofile`),
    });
    await written;
  }
  const rss = rssMb(server.pid!);
  // BENCH_HEAP_SNAPSHOT=2: a second one an update interval later, to diff: what is new in it and still alive
  // is what an update leaves until the next one (what the young generation promotes).
  const snapshots = Number(process.env.BENCH_HEAP_SNAPSHOT ?? 0);
  for (let i = 0; profileDir && i < snapshots; i++) {
    if (i > 0) await new Promise((r) => setTimeout(r, intervalMs));
    const written = nextMessage(server, 'heap-snapshot');
    server.send({
      type: 'heap-snapshot',
      file: join(profileDir, `${bare ? 'bare' : 'engine'}-${count}${i ? `-${i + 1}` : ''}.heapsnapshot`),
    });
    await written;
  }
  const statsAfter = await ask(server, 'stats');
  // Less the one this query's session adds.
  const xacts = ready.databaseUrl ? (await transactions(ready.databaseUrl)) - xactsBefore - 1 : Number.NaN;
  server.send({ type: 'stop' });
  for (const c of clients) c.kill();
  await new Promise((r) => server.once('exit', r));

  const reasons: Record<string, number> = {};
  for (const r of reports) {
    for (const [k, v] of Object.entries(r.reasons as Record<string, number>))
      reasons[k] = (reasons[k] ?? 0) + v;
  }
  if (Object.keys(reasons).length) console.log(`  ${bare ? 'bare' : 'engine'}: ${JSON.stringify(reasons)}`);
  const lateness = reports.flatMap((r) => r.lateness as number[]).sort((a, b) => a - b);
  const cpuSeconds = cpuAfter.self - cpuBefore.self;
  const cpuWindow = (cpuAfter.at - cpuBefore.at) / 1000;
  const sum = (k: string) => reports.reduce((n, r) => n + (r[k] as number), 0);
  const writesBefore = statsBefore.writes as Record<string, number> | undefined;
  const writesAfter = statsAfter.writes as Record<string, number> | undefined;
  const live = (statsAfter.live as number | undefined) ?? sum('started');
  const watch = statsAfter.chainWatch as Record<string, number> | undefined;
  const memory = statsAfter.memory as NodeJS.MemoryUsage;
  return {
    memory,
    chainWatch: watch,
    connected: sum('connected'),
    started: sum('started'),
    errors: sum('errors'),
    rampSeconds,
    updates: sum('updates'),
    expectedUpdates: Math.floor((sum('started') * elapsed * 1000) / intervalMs),
    p50: percentile(lateness, 50),
    p99: percentile(lateness, 99),
    max: lateness.at(-1) ?? Number.NaN,
    cpuPercent: (cpuSeconds / cpuWindow) * 100,
    systemPercent: ((cpuAfter.system - cpuBefore.system) / cpuWindow) * 100,
    updatesPerCpuSecond: sum('updates') / cpuSeconds,
    postgresPercent: ((cpuAfter.children - cpuBefore.children) / cpuWindow) * 100,
    rssMb: rss,
    transactionsPerSessionMinute: xacts / (live * (elapsed / 60)),
    writesPerSessionMinute:
      writesBefore && writesAfter
        ? (writesAfter.checkpointRows! - writesBefore.checkpointRows!) / (live * (elapsed / 60))
        : Number.NaN,
    statementsPerMinute:
      writesBefore && writesAfter
        ? (writesAfter.checkpointStatements! - writesBefore.checkpointStatements!) / (elapsed / 60)
        : Number.NaN,
  };
}

const load = () =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');
console.log(
  `engine benchmark: ${count} streamers, ${seconds} s measured, updates every ${intervalMs} ms, load average ${load()}`,
);
// BENCH_SKIP_BARE=1 / BENCH_SKIP_ENGINE=1: one server alone (its figures in both columns).
const engine = process.env.BENCH_SKIP_ENGINE === '1' ? await scenario(true) : await scenario(false);
const bareRun =
  process.env.BENCH_SKIP_BARE === '1' || process.env.BENCH_SKIP_ENGINE === '1'
    ? engine
    : await scenario(true);
const row = (label: string, a: string, b: string) =>
  console.log(`  ${label.padEnd(44)}${a.padStart(16)}${b.padStart(16)}`);
const f = (n: number, d = 0) => (Number.isFinite(n) ? n.toFixed(d) : 'n/a');
row('', 'engine', 'bare Socket.IO');
row(
  'connections held / streams started',
  `${engine.connected}/${engine.started}`,
  `${bareRun.connected}/${bareRun.started}`,
);
row('refused or failed', f(engine.errors), f(bareRun.errors));
row('ramp-up (s)', f(engine.rampSeconds, 1), f(bareRun.rampSeconds, 1));
row(
  'mining-updates received / due',
  `${engine.updates}/${engine.expectedUpdates}`,
  `${bareRun.updates}/${bareRun.expectedUpdates}`,
);
row('lateness p50 (ms)', f(engine.p50), f(bareRun.p50));
row('lateness p99 (ms)', f(engine.p99), f(bareRun.p99));
row('lateness max (ms)', f(engine.max), f(bareRun.max));
row('server process CPU (% of one core)', f(engine.cpuPercent), f(bareRun.cpuPercent));
row('  of it in the kernel (% of one core)', f(engine.systemPercent, 1), f(bareRun.systemPercent, 1));
row('mining-updates per CPU-second', f(engine.updatesPerCpuSecond), f(bareRun.updatesPerCpuSecond));
row('CPU ms per update', f(1000 / engine.updatesPerCpuSecond, 3), f(1000 / bareRun.updatesPerCpuSecond, 3));
row('its children: PostgreSQL + local chain (% core)', f(engine.postgresPercent), '-');
const watch = engine.chainWatch;
row(
  'chain watch: connections / refused / dropped',
  watch ? `${watch.connects}/${watch.refused}/${watch.dropped}` : 'n/a',
  '-',
);
row('chain watch: subscriptions for all sessions', watch ? String(2 * (watch.connects ?? 0)) : 'n/a', '-');
row('server RSS (MB, from /proc)', f(engine.rssMb), f(bareRun.rssMb));
const mb = (n: number) => f(n / 1024 / 1024);
row(
  '  V8 heap used / total (MB)',
  `${mb(engine.memory.heapUsed)}/${mb(engine.memory.heapTotal)}`,
  `${mb(bareRun.memory.heapUsed)}/${mb(bareRun.memory.heapTotal)}`,
);
row(
  '  outside the heap: external, of it array buffers (MB)',
  `${mb(engine.memory.external)}, ${mb(engine.memory.arrayBuffers)}`,
  `${mb(bareRun.memory.external)}, ${mb(bareRun.memory.arrayBuffers)}`,
);
row('DB transactions / session-minute', f(engine.transactionsPerSessionMinute, 2), '-');
row('DB checkpoint rows / session-minute', f(engine.writesPerSessionMinute, 2), '-');
row('DB checkpoint statements / minute', f(engine.statementsPerMinute, 1), '-');
const efficiency = engine.updatesPerCpuSecond / bareRun.updatesPerCpuSecond;
console.log(
  `  engine/bare: updates per CPU-second ${f(efficiency, 2)}×, p99 lateness ${f(engine.p99 / Math.max(1, bareRun.p99), 2)}×, RSS ${f(engine.rssMb / bareRun.rssMb, 2)}×`,
);
const targets: Array<[string, boolean]> = [
  ['10,000 live streamers', engine.started >= 10_000],
  ['≥ 0.9× the bare server’s updates per CPU-second', efficiency >= 0.9],
  // Issue 38's target (the first was 1 GB).
  ['RSS < 600 MB', engine.rssMb < 600],
  ['p99 lateness < 25 ms', engine.p99 < 25],
  ['≤ 1 database transaction per session-minute', engine.transactionsPerSessionMinute <= 1],
];
console.log(`  targets: ${targets.map(([t, ok]) => `${t} ${ok ? 'met' : 'NOT met'}`).join('; ')}`);
console.log(`  load average at the end: ${load()}`);
process.exit(0);
