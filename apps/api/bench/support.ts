// What the API benchmarks share: a real PostgreSQL (embedded, in a temporary directory) with the schema
// migrated and the default tiers seeded; their child processes (TypeScript through tsx, spoken to over IPC);
// and the CPU time of processes and of the machine.
import { type ChildProcess, fork } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '@strm/testing';
import pg from 'pg';
import type { App } from '../src/app.ts';
import { createPrisma, type PrismaClient } from '../src/db/index.ts';
import { startEmbeddedPostgres } from '../src/db/embedded.ts';
import { applyMigrations } from '../src/db/schema-engine.ts';
import { seedDefaultTiers } from '../src/services/tiers/catalog.ts';

export async function benchDatabase(): Promise<{ url: string; prisma: PrismaClient; stop(): Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), 'strm-bench-pg-'));
  const pg = await startEmbeddedPostgres({ dir, port: await freePort(), database: 'strm' });
  await applyMigrations(pg.url);
  const prisma = createPrisma(pg.url);
  await seedDefaultTiers(prisma);
  return {
    url: pg.url,
    prisma,
    async stop() {
      await prisma.$disconnect();
      await pg.stop();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** Transactions PostgreSQL has ended in the database (committed or rolled back), by its own statistics. */
export async function transactions(url: string): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    // Statistics are flushed by each backend at most once a second: ask for a fresh snapshot.
    await client.query('SELECT pg_stat_clear_snapshot()');
    const { rows } = await client.query(
      'SELECT xact_commit + xact_rollback AS n FROM pg_stat_database WHERE datname = current_database()',
    );
    return Number(rows[0].n);
  } finally {
    await client.end();
  }
}

/** What a bench server reports of itself when asked (its process and the sessions its engine runs). */
export function serverStats(app: Pick<App, 'services'>) {
  return {
    type: 'stats',
    rss: process.memoryUsage().rss,
    memory: process.memoryUsage(),
    cpu: process.cpuUsage(),
    live: app.services.engine.liveCount,
  };
}

export function percentile(sorted: number[], p: number): number {
  if (!sorted.length) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

// What processes use, from /proc: shared with bench:web (packages/testing).
export { machineCpu, type ProcessCpu, processTable, rssMb, treeCpu } from '@strm/testing/processes';

export type Message = Record<string, unknown> & { type: string };

/** A benchmark process from a TypeScript file beside this one (stdout and stderr inherited unless given). */
export function forkBench(
  file: string,
  env: NodeJS.ProcessEnv,
  options: { execArgv?: string[]; pipeStderr?: boolean } = {},
): ChildProcess {
  return fork(new URL(file, import.meta.url), [], {
    execArgv: ['--import', 'tsx', ...(options.execArgv ?? [])],
    stdio: ['ignore', 'inherit', options.pipeStderr ? 'pipe' : 'inherit', 'ipc'],
    env,
  });
}

export function nextMessage(child: ChildProcess, type: string): Promise<Message> {
  return new Promise((resolve) => {
    const on = (m: Message) => {
      if (m.type === type) {
        child.off('message', on);
        resolve(m);
      }
    };
    child.on('message', on);
  });
}

/** Sends `{ type }` and waits for the answer of the same type. */
export async function ask(child: ChildProcess, type: string): Promise<Message> {
  const answer = nextMessage(child, type);
  child.send({ type });
  return answer;
}

export interface BenchStreamer {
  wallet: string;
  token: string;
  username: string;
  /** Its own client address (X-Forwarded-For) and tier, when not the engine bench's defaults. */
  address?: string;
  tier?: string;
}

export interface StartOptions {
  /** PUT /dev/demo/live before each connects (bench:live). */
  goLive?: boolean;
  /** Streamers connect at this rate at most, in order (as fast as the server starts them without it). */
  arrivalsPerSecond?: number;
}

/**
 * The client processes (bench/engine-clients.ts), each given every n-th streamer and, with several servers,
 * one server's port (a load balancer's job); resolves once every stream is started or refused.
 */
export async function startClients(
  processes: number,
  ports: Array<number | string>,
  streamers: BenchStreamer[],
  intervalMs: number,
  options: StartOptions = {},
): Promise<{ clients: ChildProcess[]; rampSeconds: number }> {
  const clients = Array.from({ length: processes }, () => forkBench('./engine-clients.ts', process.env));
  const rampStart = Date.now();
  await runStreamers(clients, ports, streamers, intervalMs, options);
  return { clients, rampSeconds: (Date.now() - rampStart) / 1000 };
}

/**
 * Shares `streamers` among the client processes (round robin over `ports`, each a port on 127.0.0.1 or a
 * URL) and waits until all connected.
 */
export async function runStreamers(
  clients: ChildProcess[],
  ports: Array<number | string>,
  streamers: BenchStreamer[],
  intervalMs: number,
  options: StartOptions = {},
): Promise<void> {
  const startAt = Date.now();
  await Promise.all(
    clients.map((c, i) => {
      const done = nextMessage(c, 'connected');
      c.send({
        type: 'run',
        job: {
          port: ports[i % ports.length],
          intervalMs,
          goLive: options.goLive,
          streamers: streamers.filter((_s, j) => j % clients.length === i),
          ...(options.arrivalsPerSecond
            ? {
                arrivals: { perSecond: options.arrivalsPerSecond, startAt, first: i, stride: clients.length },
              }
            : {}),
        },
      });
      return done;
    }),
  );
}

/**
 * In a benchmark's server process: a V8 CPU profile of the window between the parent's `profile-start` and
 * `profile-stop` (with the file to write), answered by `profile-stop` once written.
 */
export async function answerProfiling(): Promise<void> {
  const { Session } = await import('node:inspector/promises');
  const { writeFileSync } = await import('node:fs');
  const profiler = new Session();
  profiler.connect();
  // BENCH_ALLOCATIONS=1: where the window's allocations come from, those already collected too (the garbage
  // that decides how often V8 collects and how far it grows the heap). BENCH_ALLOCATIONS=promoted: only those
  // that outlived the young generation's collections (what fills the old one and makes the full collections).
  const allocations = process.env.BENCH_ALLOCATIONS;
  const sampling = allocations === '1' || allocations === 'promoted';
  process.on('message', async (m: { type: string; file?: string }) => {
    if (m.type === 'profile-start') {
      await profiler.post('Profiler.enable');
      await profiler.post('Profiler.start');
      if (sampling)
        await profiler.post('HeapProfiler.startSampling', {
          samplingInterval: 32_768,
          includeObjectsCollectedByMajorGC: true,
          includeObjectsCollectedByMinorGC: allocations === '1',
        });
    }
    if (m.type === 'profile-stop') {
      const { profile } = await profiler.post('Profiler.stop');
      writeFileSync(m.file!, JSON.stringify(profile));
      if (sampling) {
        const { profile: sampled } = await profiler.post('HeapProfiler.stopSampling');
        writeFileSync(m.file!.replace(/\.cpuprofile$/, '.heapprofile'), JSON.stringify(sampled));
      }
      process.send?.({ type: 'profile-stop' });
    }
    if (m.type === 'heap-snapshot') {
      const { writeHeapSnapshot } = await import('node:v8');
      writeHeapSnapshot(m.file!);
      process.send?.({ type: 'heap-snapshot' });
    }
  });
}
