// Benchmark: N simulated live streamers on one server process. Prints connections held, mining-update
// lateness p50/p99, server CPU and RSS, database writes per session-minute, next to a bare Socket.IO server
// sending the same messages on the same machine (the ratio is the figure).
//   pnpm bench:engine   (BENCH_STREAMERS=10000, BENCH_SECONDS=60, BENCH_CLIENT_PROCESSES=2)
import {
  ask,
  type BenchStreamer,
  forkBench,
  type Message,
  nextMessage,
  percentile,
  startClients,
} from './support.ts';

const count = Number(process.env.BENCH_STREAMERS ?? 10_000);
const seconds = Number(process.env.BENCH_SECONDS ?? 60);
const clientProcesses = Number(process.env.BENCH_CLIENT_PROCESSES ?? 2);
const intervalMs = Number(process.env.BENCH_UPDATE_MS ?? 5000);

async function scenario(bare: boolean) {
  const server = forkBench('./engine-server.ts', {
    ...process.env,
    BENCH_BARE: bare ? '1' : '0',
    BENCH_STREAMERS: String(count),
  });
  const ready = (await nextMessage(server, 'ready')) as Message & {
    port: number;
    wallets: BenchStreamer[];
  };
  const { clients, rampSeconds } = await startClients(
    clientProcesses,
    [ready.port],
    ready.wallets,
    intervalMs,
  );
  // One update period to settle, then measure.
  await new Promise((r) => setTimeout(r, intervalMs));
  const statsBefore = await ask(server, 'stats');
  for (const c of clients) c.send({ type: 'measure' });
  const t0 = Date.now();
  await new Promise((r) => setTimeout(r, seconds * 1000));
  const statsAfter = await ask(server, 'stats');
  const elapsed = (Date.now() - t0) / 1000;
  const reports = await Promise.all(clients.map((c) => ask(c, 'report')));
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
  const cpuBefore = statsBefore.cpu as { user: number; system: number };
  const cpuAfter = statsAfter.cpu as { user: number; system: number };
  const cpuSeconds = (cpuAfter.user + cpuAfter.system - cpuBefore.user - cpuBefore.system) / 1e6;
  const sum = (k: string) => reports.reduce((n, r) => n + (r[k] as number), 0);
  const writesBefore = statsBefore.writes as Record<string, number> | undefined;
  const writesAfter = statsAfter.writes as Record<string, number> | undefined;
  const live = (statsAfter.live as number | undefined) ?? sum('started');
  return {
    connected: sum('connected'),
    started: sum('started'),
    errors: sum('errors'),
    rampSeconds,
    updates: sum('updates'),
    expectedUpdates: Math.floor((sum('started') * elapsed * 1000) / intervalMs),
    p50: percentile(lateness, 50),
    p99: percentile(lateness, 99),
    max: lateness.at(-1) ?? Number.NaN,
    cpuPercent: (cpuSeconds / elapsed) * 100,
    rssMb: (statsAfter.rss as number) / 2 ** 20,
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

console.log(`engine benchmark: ${count} streamers, ${seconds} s measured, updates every ${intervalMs} ms`);
const engine = await scenario(false);
const bareRun = process.env.BENCH_SKIP_BARE === '1' ? engine : await scenario(true);
const row = (label: string, a: string, b: string) =>
  console.log(`  ${label.padEnd(38)}${a.padStart(16)}${b.padStart(16)}`);
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
row('server CPU (% of one core)', f(engine.cpuPercent), f(bareRun.cpuPercent));
row('server RSS (MB)', f(engine.rssMb), f(bareRun.rssMb));
row('DB checkpoint rows / session-minute', f(engine.writesPerSessionMinute, 2), '-');
row('DB checkpoint statements / minute', f(engine.statementsPerMinute, 1), '-');
console.log(
  `  ratios engine/bare: p99 lateness ${f(engine.p99 / Math.max(1, bareRun.p99), 2)}×, CPU ${f(engine.cpuPercent / bareRun.cpuPercent, 2)}×, RSS ${f(engine.rssMb / bareRun.rssMb, 2)}×`,
);
console.log(
  `  targets: 10,000 live streamers, p99 < 100 ms, RSS < 1024 MB: ${engine.started >= 10_000 && engine.p99 < 100 && engine.rssMb < 1024 ? 'met' : 'not met'}`,
);
process.exit(0);
