// Benchmark: the engine on one API instance, then on two behind the same PostgreSQL and Redis (the Redis
// adapter and cluster membership on), with the same streamers and the same client processes. Prints, for
// each, how fast streams start, mining-updates delivered per second and their lateness, and the ratios.
//   pnpm bench:scale   (BENCH_STREAMERS=2000, BENCH_UPDATE_MS=1000, BENCH_SECONDS=20, BENCH_CLIENT_PROCESSES=2,
//                       BENCH_REDIS_URL=redis://127.0.0.1:6379)
import { type ChildProcess, fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Keypair } from '@solana/web3.js';
import { systemClock } from '../src/clock.ts';
import { loadConfig } from '../src/config.ts';
import { issueAuthToken } from '../src/services/auth/tokens.ts';
import { benchDatabase, percentile } from './support.ts';

const count = Number(process.env.BENCH_STREAMERS ?? 2000);
const seconds = Number(process.env.BENCH_SECONDS ?? 20);
// Whole seconds: the clients time updates by their `duration`, which counts whole seconds.
const intervalMs = Number(process.env.BENCH_UPDATE_MS ?? 1000);
const clientProcesses = Number(process.env.BENCH_CLIENT_PROCESSES ?? 2);
const redisUrl = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';
const jwtSecret = randomBytes(24).toString('hex');
const here = (f: string) => fileURLToPath(new URL(f, import.meta.url));
const tsx = {
  execArgv: ['--import', 'tsx'],
  stdio: ['ignore', 'inherit', 'inherit', 'ipc'] as Array<'ignore' | 'inherit' | 'ipc'>,
};

type Message = Record<string, unknown> & { type: string };
const nextMessage = (child: ChildProcess, type: string) =>
  new Promise<Message>((resolve) => {
    const on = (m: Message) => {
      if (m.type === type) {
        child.off('message', on);
        resolve(m);
      }
    };
    child.on('message', on);
  });
async function ask(child: ChildProcess, type: string) {
  const answer = nextMessage(child, type);
  child.send({ type });
  return answer;
}

const db = await benchDatabase();
const dir = await mkdtemp(join(tmpdir(), 'strm-bench-scale-'));
const config = loadConfig({ NODE_ENV: 'test', JWT_SECRET: jwtSecret, DATABASE_URL: db.url });
const streamers = Array.from({ length: count }, (_v, i) => ({
  wallet: Keypair.generate().publicKey.toBase58(),
  username: `scale_${i}`,
}));
for (let i = 0; i < count; i += 1000) {
  const slice = streamers.slice(i, i + 1000);
  await db.prisma.streamer.createMany({ data: slice.map(({ wallet }) => ({ wallet })) });
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
const withTokens = streamers.map((s) => ({ ...s, token: issueAuthToken(config, s.wallet, systemClock) }));

async function scenario(instances: number) {
  // A clean slate: no open session, nothing credited.
  await db.prisma.$executeRaw`DELETE FROM mining_sessions`;
  await db.prisma.$executeRaw`DELETE FROM api_instances`;
  const run = randomBytes(4).toString('hex');
  const servers = Array.from({ length: instances }, () =>
    fork(here('./scale-server.ts'), [], {
      ...tsx,
      // stderr piped: web3.js reports its failed PubSub reconnections to the stand-in chain address there.
      stdio: ['ignore', 'inherit', 'pipe', 'ipc'],
      env: {
        ...process.env,
        BENCH_DATABASE_URL: db.url,
        BENCH_REDIS_URL: redisUrl,
        BENCH_JWT_SECRET: jwtSecret,
        BENCH_STREAMERS_FILE: streamersFile,
        BENCH_UPDATE_MS: String(intervalMs),
        BENCH_RUN: run,
      },
    }),
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
  // The same client processes in both runs; with two instances each talks to one (a load balancer's job).
  const clients = Array.from({ length: clientProcesses }, () =>
    fork(here('./engine-clients.ts'), [], { ...tsx, env: process.env }),
  );
  const rampStart = Date.now();
  await Promise.all(
    clients.map((c, i) => {
      const done = nextMessage(c, 'connected');
      c.send({
        type: 'run',
        job: {
          port: ports[i % instances],
          intervalMs,
          streamers: withTokens.filter((_s, j) => j % clientProcesses === i),
        },
      });
      return done;
    }),
  );
  const rampSeconds = (Date.now() - rampStart) / 1000;
  await new Promise((r) => setTimeout(r, Math.max(1000, 2 * intervalMs)));
  const before = await Promise.all(servers.map((s) => ask(s, 'stats')));
  for (const c of clients) c.send({ type: 'measure' });
  const t0 = Date.now();
  await new Promise((r) => setTimeout(r, seconds * 1000));
  const reports = await Promise.all(clients.map((c) => ask(c, 'report')));
  const elapsed = (Date.now() - t0) / 1000;
  const after = await Promise.all(servers.map((s) => ask(s, 'stats')));
  for (const c of clients) c.kill();
  await Promise.all(
    servers.map((s) => {
      const exited = new Promise((r) => s.once('exit', r));
      s.send({ type: 'stop' });
      return exited;
    }),
  );
  const sum = (k: string) => reports.reduce((n, r) => n + (r[k] as number), 0);
  const lateness = reports.flatMap((r) => r.lateness as number[]).sort((a, b) => a - b);
  const cpu = (m: Message) => {
    const c = m.cpu as { user: number; system: number };
    return (c.user + c.system) / 1e6;
  };
  const serverCpu = after.reduce((n, a, i) => n + cpu(a) - cpu(before[i]!), 0);
  return {
    started: sum('started'),
    errors: sum('errors'),
    startsPerSecond: sum('started') / rampSeconds,
    updatesPerSecond: sum('updates') / elapsed,
    duePerSecond: (sum('started') * 1000) / intervalMs,
    p50: percentile(lateness, 50),
    p99: percentile(lateness, 99),
    serverCpuPercent: (serverCpu / elapsed) * 100,
    live: after.reduce((n, a) => n + (a.live as number), 0),
  };
}

console.log(
  `scale benchmark: ${count} streamers, updates every ${intervalMs} ms, ${seconds} s measured, ${clientProcesses} client processes, ${cpus().length} CPU cores, load average ${loadavg()[0]!.toFixed(1)}`,
);
const one = await scenario(1);
const two = await scenario(2);
const f = (n: number, d = 0) => (Number.isFinite(n) ? n.toFixed(d) : 'n/a');
const row = (label: string, a: string, b: string) =>
  console.log(`  ${label.padEnd(36)}${a.padStart(14)}${b.padStart(14)}`);
row('', '1 instance', '2 instances');
row('streams started / refused', `${one.started}/${one.errors}`, `${two.started}/${two.errors}`);
row('sessions live (sum of instances)', f(one.live), f(two.live));
row('stream starts per second', f(one.startsPerSecond), f(two.startsPerSecond));
row('mining-updates delivered per second', f(one.updatesPerSecond), f(two.updatesPerSecond));
row('mining-updates due per second', f(one.duePerSecond), f(two.duePerSecond));
row('lateness p50 (ms)', f(one.p50), f(two.p50));
row('lateness p99 (ms)', f(one.p99), f(two.p99));
row('server CPU (% of one core, all instances)', f(one.serverCpuPercent), f(two.serverCpuPercent));
console.log(
  `  ratio 2/1: updates delivered ${f(two.updatesPerSecond / one.updatesPerSecond, 2)}×, stream starts ${f(two.startsPerSecond / one.startsPerSecond, 2)}× (target ≥ 1.8×: ${two.updatesPerSecond / one.updatesPerSecond >= 1.8 ? 'met' : 'not met'})`,
);
await db.stop();
await rm(dir, { recursive: true, force: true });
process.exit(0);
