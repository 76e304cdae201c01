// Benchmark: how far the engine scales from one API instance to two behind the same PostgreSQL and Redis
// (the Redis adapter and cluster membership on), with the same streamers and the same client processes.
// Each instance runs in a kernel CPU group of its own capped at BENCH_INSTANCE_CPU of a core (packages/testing/src/cpu-groups.ts),
// as a scaled-out service gives each instance a fixed share, leaving the clients, PostgreSQL and Redis the rest
// of the machine. For one capped instance, then for two, the offered load (streamers, each with an update every
// BENCH_UPDATE_MS) is raised step by step until the setup is saturated (lateness p99 over 1 s, or fewer updates
// delivered than due); the most "mining-updates delivered per second" each setup reached at any step (its
// capacity) is compared, each found by the same search (comparing both at one load instead flatters: one
// instance overloaded twice over delivers less than at its limit, and two that keep up do not show theirs).
// Every process is
// accounted in CPU time (each instance, the clients, PostgreSQL, Redis, this process, and the rest of the
// machine from /proc/stat), and each group's cpu.stat tells whether its cap was what held the instance back.
// Without the right to create CPU groups (or with BENCH_INSTANCE_CPU=0) it says so and runs the instances
// uncapped with BENCH_STREAMERS streamers, one then two instances.
//   pnpm bench:scale   (BENCH_INSTANCE_CPU=0.2, BENCH_START=1000, BENCH_STEP=1000, BENCH_MAX_STREAMERS=20000,
//                       BENCH_UPDATE_MS=1000, BENCH_SECONDS=10 measured per step, BENCH_SETTLE_SECONDS=3,
//                       BENCH_CLIENT_PROCESSES=2, BENCH_REDIS_URL=redis://127.0.0.1:6379;
//                       uncapped: BENCH_STREAMERS=6000, BENCH_INSTANCES=1,2;
//                       BENCH_CPU_PROF=<dir>: V8 CPU profiles of each instance over each measured window)
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Keypair } from '@solana/web3.js';
import { Redis } from 'ioredis';
import { systemClock } from '../src/clock.ts';
import { loadConfig } from '../src/config.ts';
import { issueAuthToken } from '../src/services/auth/tokens.ts';
import { type CpuGroup, cpuGroups } from '@strm/testing/cpu-groups';
import { type ClusterContext, type Result, startCluster } from './scale-cluster.ts';
import { capLines, f, pct, printResults, printUncappedBound, type ReportOptions } from './scale-report.ts';
import { benchDatabase } from './support.ts';

const env = process.env;
const cap = Number(env.BENCH_INSTANCE_CPU ?? 0.2);
const firstStep = Number(env.BENCH_START ?? 1000);
const step = Number(env.BENCH_STEP ?? 1000);
const uncappedCount = Number(env.BENCH_STREAMERS ?? 6000);
// Whole seconds: the clients time updates by their `duration`, which counts whole seconds.
const intervalMs = Number(env.BENCH_UPDATE_MS ?? 1000);
const clientProcesses = Number(env.BENCH_CLIENT_PROCESSES ?? 2);
const setups = (env.BENCH_INSTANCES ?? '1,2').split(',').map(Number);
const redisUrl = env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';
const profileDir = env.BENCH_CPU_PROF ? resolve(env.BENCH_CPU_PROF) : undefined;
const jwtSecret = randomBytes(24).toString('hex');
/** Saturated: late (p99 over a second) or behind (fewer updates delivered than due). */
const LATE_MS = 1000;
const BEHIND = 0.98;

/** Redis's process on this machine (its CPU time is read from /proc), or undefined when it runs elsewhere. */
async function redisPid(): Promise<number | undefined> {
  const client = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 1 });
  try {
    await client.connect();
    const pid = Number(/process_id:(\d+)/.exec(await client.info('server'))?.[1]);
    const host = new URL(redisUrl).hostname;
    return ['127.0.0.1', 'localhost', '::1'].includes(host) && pid ? pid : undefined;
  } finally {
    client.disconnect();
  }
}

const db = await benchDatabase();
if (profileDir) await mkdir(profileDir, { recursive: true });
const dir = await mkdtemp(join(tmpdir(), 'strm-bench-scale-'));
const config = loadConfig({ NODE_ENV: 'test', JWT_SECRET: jwtSecret, DATABASE_URL: db.url });
const groups = cap > 0 ? cpuGroups() : ({ ok: false, reason: 'BENCH_INSTANCE_CPU=0' } as const);
const capped = groups.ok ? groups : null;
const count = capped ? Number(env.BENCH_MAX_STREAMERS ?? 20_000) : uncappedCount;
/**
 * The child processes and CPU groups not yet stopped and removed: at exit, however it comes (an error, ^C),
 * the children are killed and the groups removed (a group outlives its benchmark, a child its parent).
 */
const made = new Set<CpuGroup>();
const children = new Set<ChildProcess>();
process.on('exit', () => {
  for (const c of children) c.kill('SIGKILL');
  for (const g of made) {
    try {
      g.remove();
    } catch (err) {
      console.error(`could not remove the CPU group ${g.path}: ${(err as Error).message}`);
    }
  }
});
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => process.exit(130));
const streamers = Array.from({ length: count }, (_v, i) => ({
  wallet: Keypair.generate().publicKey.toBase58(),
  username: `scale_${i}`,
}));
for (let i = 0; i < count; i += 1000) {
  const slice = streamers.slice(i, i + 1000);
  await db.prisma.streamer.createMany({ data: slice.map(({ wallet }) => ({ wallet })) });
  // The streamers are beta users (the server refuses a socket without access).
  await db.prisma.betaAccess.createMany({
    data: slice.map(({ wallet }) => ({ wallet, grantedBy: 'bench' })),
  });
  await db.prisma.platformAccount.createMany({
    data: slice.map(({ wallet, username }) => ({
      wallet,
      platform: 'demo' as const,
      username,
      isVerified: true,
      verifiedAt: new Date(),
    })),
  });
}
const streamersFile = join(dir, 'streamers.json');
await writeFile(streamersFile, JSON.stringify(streamers));
const ctx: ClusterContext = {
  db,
  redisUrl,
  redis: await redisPid(),
  jwtSecret,
  streamersFile,
  withTokens: streamers.map((s) => ({ ...s, token: issueAuthToken(config, s.wallet, systemClock) })),
  cap,
  capped,
  intervalMs,
  seconds: Number(env.BENCH_SECONDS ?? 10),
  settleMs: Number(env.BENCH_SETTLE_SECONDS ?? 3) * 1000,
  clientProcesses,
  profileDir,
  made,
  children,
};
const report: ReportOptions = {
  cap: capped ? cap : 0,
  most: capped ? 2 : Math.max(...setups),
  clientProcesses,
};
const load = () =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');

const capNote = capped
  ? `each instance capped at ${f(cap * 100)}% of a core (cgroup ${capped.version}, ${capped.root})`
  : `instances uncapped: no CPU groups (${groups.ok ? '' : groups.reason})`;
console.log(
  `scale benchmark: updates every ${intervalMs} ms, ${ctx.seconds} s measured per window, ${clientProcesses} client processes, ${cpus().length} CPU cores, load average ${load()}; ${capNote}`,
);
const saturated = (r: Result) => r.p99 > LATE_MS || r.updatesPerSecond < BEHIND * r.duePerSecond;
const kept = (r: Result) => !saturated(r);

/** `instances` capped instances, the load raised by `by` from `from` until saturated: every step measured. */
async function search(instances: number, from: number, by: number) {
  console.log(`  ${instances} capped instance${instances > 1 ? 's' : ''}, raising the load:`);
  const cluster = await startCluster(ctx, instances);
  const steps: Result[] = [];
  for (let n = Math.min(from, count); ; n = Math.min(n + by, count)) {
    await cluster.offer(n);
    const r = await cluster.measure();
    steps.push(r);
    const cpu = r.before.servers.map((_s, i) => f(pct(r, (c) => c.servers[i]!))).join('+');
    const throttled = r.throttled
      .map((t) => (t ? f((100 * t.throttledPeriods) / Math.max(1, t.periods)) : 'n/a'))
      .join('/');
    console.log(
      `    ${String(n).padStart(6)} streamers: ${f(r.updatesPerSecond)} of ${f(r.duePerSecond)} updates/s delivered, lateness p50/p99 ${f(r.p50)}/${f(r.p99)} ms, instance CPU ${cpu}%, throttled in ${throttled}% of periods${saturated(r) ? ' — saturated' : ''}  [load ${load()}]`,
    );
    if (saturated(r) || n >= count) break;
  }
  await cluster.stop();
  const last = steps.at(-1)!;
  const peak = steps.reduce((b, r) => (r.updatesPerSecond > b.updatesPerSecond ? r : b));
  const keptUp = steps.filter(kept).at(-1);
  return { instances, steps, saturatedAt: saturated(last) ? last : undefined, peak, keptUp };
}

if (capped) {
  const one = await search(1, firstStep, step);
  // Two start where one was saturated (below, they keep up), raised by twice the step (the same relative
  // resolution).
  const two = await search(2, one.saturatedAt?.offered ?? firstStep, 2 * step);
  const shown = [one, two].map((s) => s.saturatedAt ?? s.peak);
  console.log('  the step at which each setup was saturated (or its last):');
  printResults(shown, report, (r) => `${r.instances}× at ${r.offered}`);
  for (const r of shown) for (const l of capLines(r, cap)) console.log(`  ${r.instances}×: ${l.text}`);
  for (const s of [one, two]) {
    console.log(
      `  ${s.instances} instance${s.instances > 1 ? 's' : ''}: most delivered ${f(s.peak.updatesPerSecond)} updates/s (at ${s.peak.offered} streamers, p99 ${f(s.peak.p99)} ms); highest load kept up ${s.keptUp ? `${s.keptUp.offered} streamers (${f(s.keptUp.updatesPerSecond)}/s)` : 'none'}; ${s.saturatedAt ? `saturated at ${s.saturatedAt.offered}` : `not saturated by ${count} streamers (BENCH_MAX_STREAMERS): its capacity is at least this`}`,
    );
  }
  const ratio = two.peak.updatesPerSecond / one.peak.updatesPerSecond;
  const capsLimited =
    !!one.saturatedAt &&
    !!two.saturatedAt &&
    [one.saturatedAt, two.saturatedAt].every((r) => capLines(r, cap).every((l) => l.limited));
  console.log(
    `  ratio 2/1 of the most delivered (capacity, each by the same search): ${f(ratio, 2)}× (target ≥ 1.8× with the cap the limit of every instance where saturated: ${ratio >= 1.8 && capsLimited ? 'met' : `not met${capsLimited ? '' : ', the caps not shown to be the limit'}`})`,
  );
  if (one.keptUp && two.keptUp) {
    console.log(
      `  ratio 2/1 of the highest load kept up: ${f(two.keptUp.offered / one.keptUp.offered, 2)}× (resolution: the step, ${step} and ${2 * step} streamers)`,
    );
  }
} else {
  console.log(`  ${uncappedCount} streamers offered to each setup`);
  const results: Result[] = [];
  for (const n of setups) {
    const cluster = await startCluster(ctx, n);
    await cluster.offer(uncappedCount);
    results.push(await cluster.measure());
    await cluster.stop();
  }
  const cpu = printResults(results, report);
  const one = results.find((r) => r.instances === 1);
  const two = results.find((r) => r.instances === 2);
  if (one && two) {
    const ratio = two.updatesPerSecond / one.updatesPerSecond;
    console.log(
      `  ratio 2/1 at the same offered load: updates delivered ${f(ratio, 2)}×, stream starts ${f(two.startsPerSecond / one.startsPerSecond, 2)}× (uncapped: not the target's figure)`,
    );
    if (one.updatesPerSecond >= BEHIND * one.duePerSecond) {
      console.log(
        `  one instance kept up with the offered load (${f(one.updatesPerSecond)} of ${f(one.duePerSecond)} updates/s): the delivered ratio cannot exceed 1 here`,
      );
    }
    const busy = cpu[results.indexOf(two)]!;
    if (busy.machineBusy >= 0.9 * busy.capacity) {
      console.log(
        `  with two instances the machine was busy ${f(busy.machineBusy)}% of ${f(busy.capacity)}% (other sessions ${f(busy.rows.find(([l]) => l.startsWith('everything else'))![1])}%): the cores, not the instances, were the limit`,
      );
    }
    printUncappedBound(one, two);
  }
}
console.log(`  load average at the end: ${load()}`);
await db.stop();
await rm(dir, { recursive: true, force: true });
process.exit(0);
