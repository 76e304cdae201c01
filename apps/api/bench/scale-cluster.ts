// bench:scale's cluster: API instances (bench/scale-server.ts), each in a CPU group of its own when the
// machine allows, the client processes, and the CPU time of every part of the benchmark over a window.
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import type { CpuGroup, CpuGroups } from '@strm/testing/cpu-groups';
import {
  ask,
  type BenchStreamer,
  forkBench,
  machineCpu,
  nextMessage,
  percentile,
  processTable,
  runStreamers,
  treeCpu,
} from './support.ts';

export interface ClusterContext {
  db: { url: string; prisma: { $executeRaw(q: TemplateStringsArray): Promise<unknown> } };
  redisUrl: string;
  /** Redis's process on this machine (its CPU is read from /proc), when it runs here. */
  redis: number | undefined;
  jwtSecret: string;
  streamersFile: string;
  withTokens: BenchStreamer[];
  cap: number;
  capped: Extract<CpuGroups, { ok: true }> | null;
  intervalMs: number;
  seconds: number;
  settleMs: number;
  clientProcesses: number;
  profileDir: string | undefined;
  /** Groups and children not yet removed or stopped (removed and killed at any exit). */
  made: Set<CpuGroup>;
  children: Set<ChildProcess>;
}

/** CPU seconds so far of each part of the benchmark, and of the machine. */
export function cpuNow(ctx: ClusterContext, servers: ChildProcess[], clients: ChildProcess[]) {
  const table = processTable();
  const own = new Set([...servers, ...clients].map((c) => c.pid!));
  // This process's other descendants: the embedded PostgreSQL (its server and backends).
  let postgres = 0;
  for (const p of table.values())
    if (p.ppid === process.pid && !own.has(p.pid)) postgres += treeCpu(table, p.pid);
  return {
    servers: servers.map((s) => treeCpu(table, s.pid!)),
    clients: clients.reduce((n, c) => n + treeCpu(table, c.pid!), 0),
    postgres,
    redis: ctx.redis === undefined ? Number.NaN : (table.get(ctx.redis)?.self ?? Number.NaN),
    bench: table.get(process.pid)?.self ?? 0,
    machine: machineCpu(),
    at: Date.now(),
  };
}
export type CpuNow = ReturnType<typeof cpuNow>;

/**
 * `instances` API instances, each in a CPU group of its own when the machine allows (capped at `cap` while
 * measured), and the client processes (each talks to one instance, a load balancer's job). The offered load
 * is raised with `offer`; `measure` reads one window.
 */
export async function startCluster(ctx: ClusterContext, instances: number) {
  const { db, capped, made, children, intervalMs, seconds, settleMs, profileDir } = ctx;
  // A clean slate: no open session, nothing credited.
  await db.prisma.$executeRaw`DELETE FROM mining_sessions`;
  await db.prisma.$executeRaw`DELETE FROM api_instances`;
  const run = randomBytes(4).toString('hex');
  const servers = Array.from({ length: instances }, () =>
    forkBench(
      './scale-server.ts',
      {
        ...process.env,
        BENCH_DATABASE_URL: db.url,
        BENCH_REDIS_URL: ctx.redisUrl,
        BENCH_JWT_SECRET: ctx.jwtSecret,
        BENCH_STREAMERS_FILE: ctx.streamersFile,
        BENCH_UPDATE_MS: String(intervalMs),
        BENCH_RUN: run,
      },
      {
        // web3.js reports its failed PubSub reconnections to the stand-in chain address on stderr.
        pipeStderr: true,
      },
    ),
  );
  for (const s of servers) {
    s.stderr?.on('data', (chunk: Buffer) => {
      const lines = chunk
        .toString()
        .split('\n')
        .filter((l) => l && !l.startsWith('ws error'));
      if (lines.length) process.stderr.write(`${lines.join('\n')}\n`);
    });
  }
  const ports = await Promise.all(servers.map(async (s) => (await nextMessage(s, 'ready')).port as number));
  const cpuGroup = servers.map((s, i) => {
    if (!capped) return undefined;
    const group = capped.create(`strm-bench-${run}-${i + 1}`);
    made.add(group);
    group.add(s.pid!);
    return group;
  });
  const clients = Array.from({ length: ctx.clientProcesses }, () =>
    forkBench('./engine-clients.ts', process.env),
  );
  for (const child of [...servers, ...clients]) {
    children.add(child);
    child.once('exit', () => children.delete(child));
  }
  let offered = 0;
  let ramp = {
    before: cpuNow(ctx, servers, clients),
    after: cpuNow(ctx, servers, clients),
    starts: 0,
    seconds: 0,
  };

  return {
    instances,
    /** Raises the offered load to `count` streamers, started while the instances are uncapped. */
    async offer(count: number) {
      // Stream starts are not what is measured; capped and saturated, an instance starts a few a second.
      for (const g of cpuGroup) g?.cap(null);
      const adding = ctx.withTokens.slice(offered, count);
      const before = cpuNow(ctx, servers, clients);
      const t0 = Date.now();
      await runStreamers(clients, ports, adding, intervalMs);
      // Every stream start so far counts in the start rate; the CPU table covers the last raise.
      ramp = {
        before,
        after: cpuNow(ctx, servers, clients),
        starts: ramp.starts + adding.length,
        seconds: ramp.seconds + (Date.now() - t0) / 1000,
      };
      offered = count;
      for (const g of cpuGroup) g?.cap(ctx.cap);
    },
    async measure() {
      await new Promise((r) => setTimeout(r, settleMs));
      const before = cpuNow(ctx, servers, clients);
      const throttledBefore = cpuGroup.map((g) => g?.throttling());
      // Resets each instance's event-loop delay histogram: the next stats cover the measured window.
      await Promise.all(servers.map((s) => ask(s, 'stats')));
      for (const c of clients) c.send({ type: 'measure' });
      if (profileDir) for (const s of servers) s.send({ type: 'profile-start' });
      const t0 = Date.now();
      await new Promise((r) => setTimeout(r, seconds * 1000));
      const reports = await Promise.all(clients.map((c) => ask(c, 'report')));
      const elapsed = (Date.now() - t0) / 1000;
      const after = cpuNow(ctx, servers, clients);
      const throttled = cpuGroup.map((g, i) => {
        const [b, a] = [throttledBefore[i], g?.throttling()];
        if (!a || !b) return undefined;
        return {
          periods: a.periods - b.periods,
          throttledPeriods: a.throttledPeriods - b.throttledPeriods,
          throttledSeconds: a.throttledSeconds - b.throttledSeconds,
        };
      });
      if (profileDir) {
        await Promise.all(
          servers.map((s, i) => {
            const written = nextMessage(s, 'profile-stop');
            s.send({
              type: 'profile-stop',
              file: join(profileDir, `${instances}x-${offered}-instance-${i + 1}.cpuprofile`),
            });
            return written;
          }),
        );
      }
      const statsAfter = await Promise.all(servers.map((s) => ask(s, 'stats')));
      const sum = (k: string) => reports.reduce((n, r) => n + (r[k] as number), 0);
      const reasons: Record<string, number> = {};
      for (const r of reports) {
        for (const [k, v] of Object.entries(r.reasons as Record<string, number>))
          reasons[k] = (reasons[k] ?? 0) + v;
      }
      const lateness = reports.flatMap((r) => r.lateness as number[]).sort((a, b) => a - b);
      return {
        instances,
        offered,
        reasons,
        started: sum('started'),
        errors: sum('errors'),
        startsPerSecond: ramp.starts / ramp.seconds,
        updatesPerSecond: sum('updates') / elapsed,
        duePerSecond: (sum('started') * 1000) / intervalMs,
        p50: percentile(lateness, 50),
        p99: percentile(lateness, 99),
        live: statsAfter.reduce((n, a) => n + (a.live as number), 0),
        lagMeanMs: Math.max(...statsAfter.map((a) => a.lagMeanMs as number)),
        lagMaxMs: Math.max(...statsAfter.map((a) => a.lagMaxMs as number)),
        elapsed,
        before,
        after,
        throttled,
        ramp: { before: ramp.before, after: ramp.after },
      };
    },
    async stop() {
      for (const c of clients) c.kill();
      await Promise.all(
        servers.map((s) => {
          const exited = new Promise((r) => s.once('exit', r));
          s.send({ type: 'stop' });
          return exited;
        }),
      );
      for (const g of cpuGroup) {
        if (!g) continue;
        g.remove();
        made.delete(g);
      }
    },
  };
}
export type Cluster = Awaited<ReturnType<typeof startCluster>>;
export type Result = Awaited<ReturnType<Cluster['measure']>>;
