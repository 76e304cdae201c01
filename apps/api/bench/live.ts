// Benchmark: N real streamers live at once against the running product (`./run start`: embedded PostgreSQL,
// the default local chain, the real chain path; nothing stubbed), driven from outside. Prepares the
// streamers through the product's own endpoints (bench/live-prepare.ts; kept between runs), then opens every
// streamer's socket from client processes (each puts its demo channel live, connects with its own client
// address and starts its stream), holds them, and prints: live sessions held (the product's own
// /metrics), sockets held (established TCP connections to the API's port), the API's RSS, its CPU per
// mining-update received, lateness p50/p99 of the updates and database transactions per session-minute
// (PostgreSQL's pg_stat_database). The API process is the one listening on the port (found with `ss`).
//   ./run start &    then    pnpm bench:live
//   BENCH_LIVE_URL (http://127.0.0.1:$PORT, PORT 3000), BENCH_STREAMERS (10000), BENCH_SECONDS (60),
//   BENCH_CLIENT_PROCESSES (4), BENCH_PREPARE_CONCURRENCY (32), BENCH_TIER (Tier 1),
//   BENCH_LIVE_DATA (<DATA_DIR>/bench-live: the prepared streamers), DATA_DIR and EMBEDDED_PG_PORT as the product's,
//   BENCH_PREPARE_ONLY=1 (prepare, then stop).
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { loadavg } from 'node:os';
import { embeddedUrl } from '../src/db/embedded.ts';
import { repoRoot } from '../src/paths.ts';
import { Api, prepareStreamers } from './live-prepare.ts';
import { ask, percentile, processTable, rssMb, startClients, transactions } from './support.ts';

const env = process.env;
const port = Number(env.PORT ?? 3000);
const url = env.BENCH_LIVE_URL ?? `http://127.0.0.1:${port}`;
const count = Number(env.BENCH_STREAMERS ?? 10_000);
const seconds = Number(env.BENCH_SECONDS ?? 60);
const clientProcesses = Number(env.BENCH_CLIENT_PROCESSES ?? 4);
const dataDir = env.DATA_DIR ?? join(repoRoot, '.data');
const liveData = env.BENCH_LIVE_DATA ?? join(dataDir, 'bench-live');
const intervalMs = Number(env.MINING_UPDATE_INTERVAL_MS ?? 5000);
const load = () =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');
const log = (line: string) =>
  console.log(`${line}  [${new Date().toISOString().slice(11, 19)}, load ${load()}]`);

/** The process listening on the API's port. */
function apiPid(): number {
  const out = execFileSync('ss', ['-Hltnp', `sport = :${new URL(url).port || 80}`]).toString();
  const pid = /pid=(\d+)/.exec(out)?.[1];
  if (!pid) throw new Error(`nothing listens on ${url} (start the product with ./run start)`);
  return Number(pid);
}

/** Established TCP connections to the API's port (the sockets it holds). */
function socketsHeld(): number {
  const out = execFileSync('ss', [
    '-Htn',
    'state',
    'established',
    `sport = :${new URL(url).port}`,
  ]).toString();
  return out.split('\n').filter(Boolean).length;
}

async function liveSessions(api: Api): Promise<number> {
  const res = await fetch(`${api.url}/metrics`, {
    headers: {
      'X-Forwarded-For': '10.255.0.3',
      ...(env.METRICS_TOKEN ? { Authorization: `Bearer ${env.METRICS_TOKEN}` } : {}),
    },
  });
  const line = /^strm_mining_sessions_live (\d+)/m.exec(await res.text());
  return line ? Number(line[1]) : Number.NaN;
}

async function databaseUrl(): Promise<string | undefined> {
  if (env.DATABASE_URL) return env.DATABASE_URL;
  return embeddedUrl(join(dataDir, 'postgres'), Number(env.EMBEDDED_PG_PORT ?? 54320), 'strm');
}

const api = new Api(url);
log(`live benchmark: ${count} streamers against ${url}, ${seconds} s held and measured`);
const pid = apiPid();
const streamers = await prepareStreamers({
  api,
  dataDir: liveData,
  productEnv: { ...env, DATA_DIR: dataDir },
  count,
  concurrency: Number(env.BENCH_PREPARE_CONCURRENCY ?? 32),
  tier: env.BENCH_TIER ?? 'Tier 1',
  log,
});
if (env.BENCH_PREPARE_ONLY === '1') process.exit(0);
if (streamers.length < count) log(`  only ${streamers.length} streamers prepared; holding those`);
const dbUrl = await databaseUrl();
log(`  opening ${streamers.length} sockets from ${clientProcesses} client processes`);
const { clients, rampSeconds } = await startClients(clientProcesses, [url], streamers, intervalMs, {
  goLive: true,
});
log(`  ramp done in ${rampSeconds.toFixed(0)} s (${(streamers.length / rampSeconds).toFixed(0)} streams/s)`);
await new Promise((r) => setTimeout(r, intervalMs));
const liveBefore = await liveSessions(api);
const cpuBefore = { self: processTable().get(pid)?.self ?? Number.NaN, at: Date.now() };
const xactsBefore = dbUrl ? await transactions(dbUrl) : Number.NaN;
for (const c of clients) c.send({ type: 'measure' });
const t0 = Date.now();
let rssPeak = 0;
const sampler = setInterval(() => {
  rssPeak = Math.max(rssPeak, rssMb(pid));
}, 1000);
await new Promise((r) => setTimeout(r, seconds * 1000));
clearInterval(sampler);
const reports = await Promise.all(clients.map((c) => ask(c, 'report')));
const elapsed = (Date.now() - t0) / 1000;
const cpuAfter = { self: processTable().get(pid)?.self ?? Number.NaN, at: Date.now() };
const xacts = dbUrl ? (await transactions(dbUrl)) - xactsBefore - 1 : Number.NaN;
const sockets = socketsHeld();
const rss = rssMb(pid);
const liveAfter = await liveSessions(api);
for (const c of clients) c.kill();

const sum = (k: string) => reports.reduce((n, r) => n + (r[k] as number), 0);
const reasons: Record<string, number> = {};
for (const r of reports)
  for (const [k, v] of Object.entries(r.reasons as Record<string, number>))
    reasons[k] = (reasons[k] ?? 0) + v;
const lateness = reports.flatMap((r) => r.lateness as number[]).sort((a, b) => a - b);
const updates = sum('updates');
const cpuSeconds = cpuAfter.self - cpuBefore.self;
const sessionMinutes = Math.min(liveBefore, liveAfter) * (elapsed / 60);
const f = (n: number, d = 0) => (Number.isFinite(n) ? n.toFixed(d) : 'n/a');
const row = (label: string, value: string) => console.log(`  ${label.padEnd(56)}${value}`);
if (Object.keys(reasons).length) console.log(`  clients saw: ${JSON.stringify(reasons)}`);
row(
  'streamers prepared / streams started / refused',
  `${streamers.length} / ${sum('started')} / ${sum('errors')}`,
);
row('live sessions held (product /metrics, before / after)', `${f(liveBefore)} / ${f(liveAfter)}`);
row('sockets held (established TCP to the API port)', f(sockets));
row('ramp (s)', f(rampSeconds, 1));
row(
  'mining-updates received / due',
  `${updates} / ${Math.floor((sum('started') * elapsed * 1000) / intervalMs)}`,
);
row(
  'lateness p50 / p99 / max (ms)',
  `${f(percentile(lateness, 50))} / ${f(percentile(lateness, 99))} / ${f(lateness.at(-1) ?? Number.NaN)}`,
);
row('API process CPU (% of one core)', f((cpuSeconds / ((cpuAfter.at - cpuBefore.at) / 1000)) * 100));
row('API CPU per mining-update (ms)', f((cpuSeconds * 1000) / updates, 3));
row('API RSS (MB, from /proc; peak while measured)', `${f(rss)} (${f(rssPeak)})`);
row('DB transactions per session-minute', f(xacts / sessionMinutes, 2));
log('  done');
process.exit(0);
