// One API instance of the scale benchmark (bench/scale.ts): the real app with the Redis adapter and cluster
// membership, on the benchmark's shared PostgreSQL and Redis. As in bench/engine-server.ts, the chain is
// the one boundary replaced (tier records from memory) and the streamers' demo accounts are live.
import { readFileSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { toBaseUnits } from '@strm/shared';
import { createApp } from '../src/app.ts';
import { limitHeapGrowth } from '../src/heap.ts';
import { createRpc } from '../src/rpc/rpc.ts';
import { systemClock } from '../src/clock.ts';
import { loadConfig } from '../src/config.ts';
import { createPrisma } from '../src/db/index.ts';
import { createLogger } from '../src/logger.ts';
import { DemoPlatform } from '../src/platforms/demo.ts';
import type { StreamerRecords } from '../src/rpc/streamer-records.ts';
import { attachRedisAdapter } from '../src/socket/redis-adapter.ts';
import { serverStats } from './support.ts';

const send = (message: unknown) => process.send?.(message);
const streamers = JSON.parse(readFileSync(process.env.BENCH_STREAMERS_FILE!, 'utf8')) as Array<{
  wallet: string;
  username: string;
}>;
const config = loadConfig({
  NODE_ENV: 'test',
  DATABASE_URL: process.env.BENCH_DATABASE_URL,
  REDIS_URL: process.env.BENCH_REDIS_URL,
  LOG_LEVEL: 'silent',
  JWT_SECRET: process.env.BENCH_JWT_SECRET,
  DEMO_PLATFORM: 'on',
  MINING_UPDATE_INTERVAL_MS: process.env.BENCH_UPDATE_MS,
  // Every client connects from this machine.
  SOCKET_HANDSHAKES_PER_MINUTE: '1000000',
});
const prisma = createPrisma(config.databaseUrl!);
const activatedAt = new Date(Date.now() - 3 * 86_400_000);
const records: StreamerRecords = {
  read: async () => ({ tierName: 'Tier 9', activatedAt, deposited: toBaseUnits(1_000_000) }),
  watch: () => () => {},
  watchAccount: () => () => {},
  readMany: async (wallets) =>
    new Map(wallets.map((w) => [w, { tierName: 'Tier 9', activatedAt, deposited: toBaseUnits(1_000_000) }])),
  ready: async () => true,
  close: () => {},
};
// The demo platform is in each process's memory: every instance knows every streamer is live.
const demo = new DemoPlatform();
for (const s of streamers) demo.setLive(s.username, true, 0);
const logger = createLogger('silent');
// As the API's entry point does (src/main.ts).
limitHeapGrowth();
const app = createApp({
  config,
  prisma,
  databaseUrl: config.databaseUrl,
  rpc: createRpc('http://127.0.0.1:9'),
  clock: systemClock,
  logger,
  demoPlatform: demo,
  streamerRecords: records,
});
const redis = await attachRedisAdapter(
  app.io,
  config.redisUrl!,
  `scale-bench-${process.env.BENCH_RUN}`,
  logger,
);
await app.services.start();
await new Promise<void>((resolve) => app.server.listen(0, '127.0.0.1', resolve));
const profiler = new Session();
profiler.connect();
const delay = monitorEventLoopDelay({ resolution: 10 });
delay.enable();
process.on('message', async (m: { type: string }) => {
  if (m.type === 'stats') {
    send({
      ...serverStats(app),
      // Since the previous stats (nanoseconds in the histogram).
      lagMeanMs: delay.mean / 1e6,
      lagMaxMs: delay.max / 1e6,
    });
    delay.reset();
  }
  // A V8 CPU profile of the measured window only (BENCH_CPU_PROF).
  if (m.type === 'profile-start') {
    await profiler.post('Profiler.enable');
    await profiler.post('Profiler.start');
  }
  if (m.type === 'profile-stop') {
    const { profile } = await profiler.post('Profiler.stop');
    writeFileSync((m as { type: string; file: string }).file, JSON.stringify(profile));
    send({ type: 'profile-stop' });
  }
  if (m.type === 'stop') {
    app.io.close();
    await app.services.stop();
    await redis.close();
    await prisma.$disconnect();
    process.exit(0);
  }
});
send({ type: 'ready', port: (app.server.address() as { port: number }).port });
