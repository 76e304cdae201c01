// Benchmark: N simulated live streamers on one server process, on the real chain path (every streamer's
// record an account on the local chain, read at start and watched through PubSub for the whole session). Prints connections held, mining-update
// lateness p50/p99, the server's mining-updates per CPU-second, its RSS, and database transactions per
// session-minute, next to a bare Socket.IO server sending the same messages on the same machine (the ratio
// is the figure): once with its streamers arriving at the engine's measured ramp (the baseline), once all at
// once (for reference). Measured from outside: CPU time and RSS from /proc (the API process alone; its embedded
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

/**
 * One server under `count` streamers: `label` names its files (profiles, perf data); the bare server with
 * `arrivalsPerSecond` has its streamers connect at that rate (the engine's own ramp), else as fast as it
 * starts them.
 */
async function scenario(label: 'engine' | 'bare' | 'bare-at-once', arrivalsPerSecond?: number) {
  const bare = label !== 'engine';
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
    arrivalsPerSecond ? { arrivalsPerSecond } : {},
  );
  // One update period to settle, then measure.
  await new Promise((r) => setTimeout(r, intervalMs));
  const statsBefore = await ask(server, 'stats');
  const xactsBefore = ready.databaseUrl ? await transactions(ready.databaseUrl) : Number.NaN;
  const cpuBefore = serverCpu(server.pid!);
  for (const c of clients) c.send({ type: 'measure' });
  if (profileDir) server.send({ type: 'profile-start' });
  const perfStop = perfDir
    ? perfRecord(server.pid!, join(perfDir, `${label}-${count}.perf.data`))
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
      file: join(profileDir, `${label}-${count}.cpuprofile`),
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
      file: join(profileDir, `${label}-${count}${i ? `-${i + 1}` : ''}.heapsnapshot`),
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
  if (Object.keys(reasons).length) console.log(`  ${label}: ${JSON.stringify(reasons)}`);
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
// The bare server twice. Once with its streamers arriving at the engine's own measured rate, the baseline
// the ratio is taken against: when sockets connect decides when Engine.IO's heartbeats (one per socket every
// 25 s) and the per-socket update timers fall, and the same bare server costs about half again as much per
// update when its 10,000 sockets arrive over 75 s (as the engine starts them) as when they arrive in 4 s, where
// the heartbeats come in bursts and share wake-ups (docs/benchmarks.md#mining-engine). Once as fast as it
// accepts them, for reference. BENCH_BARE_ARRIVALS=same / at-once: only that one; BENCH_SKIP_BARE=1 /
// BENCH_SKIP_ENGINE=1: one server alone (its figures in the first column).
const arrivals = process.env.BENCH_BARE_ARRIVALS ?? 'both';
const alone = process.env.BENCH_SKIP_BARE === '1' || process.env.BENCH_SKIP_ENGINE === '1';
const engine =
  process.env.BENCH_SKIP_ENGINE === '1' ? await scenario('bare-at-once') : await scenario('engine');
const engineArrivals = engine.started / engine.rampSeconds;
const bareSame = alone || arrivals === 'at-once' ? undefined : await scenario('bare', engineArrivals);
const bareAtOnce = alone || arrivals === 'same' ? undefined : await scenario('bare-at-once');
const columns = [
  { name: 'engine', run: engine },
  ...(bareSame ? [{ name: 'bare, same ramp', run: bareSame }] : []),
  ...(bareAtOnce ? [{ name: 'bare, at once', run: bareAtOnce }] : []),
];
type Run = typeof engine;
const row = (label: string, cell: (r: Run) => string, engineOnly = false) =>
  console.log(
    `  ${label.padEnd(44)}${columns.map((c, i) => (engineOnly && i > 0 ? '-' : cell(c.run)).padStart(18)).join('')}`,
  );
const f = (n: number, d = 0) => (Number.isFinite(n) ? n.toFixed(d) : 'n/a');
console.log(`  ${''.padEnd(44)}${columns.map((c) => c.name.padStart(18)).join('')}`);
row('connections held / streams started', (r) => `${r.connected}/${r.started}`);
row('refused or failed', (r) => f(r.errors));
row('ramp-up (s)', (r) => f(r.rampSeconds, 1));
row('mining-updates received / due', (r) => `${r.updates}/${r.expectedUpdates}`);
row('lateness p50 (ms)', (r) => f(r.p50));
row('lateness p99 (ms)', (r) => f(r.p99));
row('lateness max (ms)', (r) => f(r.max));
row('server process CPU (% of one core)', (r) => f(r.cpuPercent));
row('  of it in the kernel (% of one core)', (r) => f(r.systemPercent, 1));
row('mining-updates per CPU-second', (r) => f(r.updatesPerCpuSecond));
row('CPU ms per update', (r) => f(1000 / r.updatesPerCpuSecond, 3));
row('its children: PostgreSQL + local chain (% core)', (r) => f(r.postgresPercent), true);
const watch = engine.chainWatch;
row(
  'chain watch: connections / refused / dropped',
  () => (watch ? `${watch.connects}/${watch.refused}/${watch.dropped}` : 'n/a'),
  true,
);
row(
  'chain watch: subscriptions for all sessions',
  () => (watch ? String(2 * (watch.connects ?? 0)) : 'n/a'),
  true,
);
row('server RSS (MB, from /proc)', (r) => f(r.rssMb));
const mb = (n: number) => f(n / 1024 / 1024);
row('  V8 heap used / total (MB)', (r) => `${mb(r.memory.heapUsed)}/${mb(r.memory.heapTotal)}`);
row(
  '  outside the heap: external, of it array buffers (MB)',
  (r) => `${mb(r.memory.external)}, ${mb(r.memory.arrayBuffers)}`,
);
row('DB transactions / session-minute', (r) => f(r.transactionsPerSessionMinute, 2), true);
row('DB checkpoint rows / session-minute', (r) => f(r.writesPerSessionMinute, 2), true);
row('DB checkpoint statements / minute', (r) => f(r.statementsPerMinute, 1), true);
const baseline = bareSame ?? bareAtOnce ?? engine;
const efficiency = engine.updatesPerCpuSecond / baseline.updatesPerCpuSecond;
const ratios = (bare: Run) =>
  `updates per CPU-second ${f(engine.updatesPerCpuSecond / bare.updatesPerCpuSecond, 2)}×, p99 lateness ${f(engine.p99 / Math.max(1, bare.p99), 2)}×, RSS ${f(engine.rssMb / bare.rssMb, 2)}×`;
if (bareSame)
  console.log(`  engine / bare, same ramp (${f(engineArrivals)} arrivals/s): ${ratios(bareSame)}`);
if (bareAtOnce) console.log(`  engine / bare, at once: ${ratios(bareAtOnce)}`);
const targets: Array<[string, boolean]> = [
  ['10,000 live streamers', engine.started >= 10_000],
  [`≥ 0.9× the bare server’s updates per CPU-second${bareSame ? ' (same ramp)' : ''}`, efficiency >= 0.9],
  ['RSS < 600 MB', engine.rssMb < 600],
  ['p99 lateness < 25 ms', engine.p99 < 25],
  ['≤ 1 database transaction per session-minute', engine.transactionsPerSessionMinute <= 1],
];
console.log(`  targets: ${targets.map(([t, ok]) => `${t} ${ok ? 'met' : 'NOT met'}`).join('; ')}`);
console.log(`  load average at the end: ${load()}`);
process.exit(0);
