// The benchmark's server process: the real app (handshake, engine, database writes, Socket.IO) on an
// embedded PostgreSQL, with N streamers whose demo accounts are verified and live. The chain is the one
// boundary replaced: each streamer's tier record comes from memory (the engine reads it once per session
// start; chain throughput has its own benchmark in chain/bench). Or, with BENCH_BARE=1, a bare Socket.IO
// server sending the same messages on the same schedule with per-socket timers.
import { Keypair } from '@solana/web3.js';
import { fromBaseUnits, toBaseUnits } from '@strm/shared';
import { Server } from 'socket.io';
import { createApp } from '../src/app.ts';
import { createChain } from '../src/chain.ts';
import { systemClock } from '../src/clock.ts';
import { loadConfig } from '../src/config.ts';
import { createLogger } from '../src/logger.ts';
import { DemoPlatform } from '../src/platforms/demo.ts';
import type { StreamerRecords } from '../src/services/chain/streamer-records.ts';
import { issueAuthToken } from '../src/services/auth/tokens.ts';
import { benchDatabase } from './support.ts';

const count = Number(process.env.BENCH_STREAMERS ?? 10_000);
const intervalMs = Number(process.env.BENCH_UPDATE_MS ?? 5000);
const bare = process.env.BENCH_BARE === '1';
const send = (message: unknown) => process.send?.(message);

const wallets = Array.from({ length: count }, () => Keypair.generate().publicKey.toBase58());

if (bare) {
  const io = new Server({ transports: ['websocket'] });
  io.on('connection', (socket) => {
    let timer: NodeJS.Timeout | undefined;
    socket.on('start-stream', (p: { platform: string }) => {
      const started = Date.now();
      socket.emit('stream-started', {
        startedAt: new Date(started).toISOString(),
        miningRate: 2,
        engagementBoostPercent: 0,
        platform: p.platform,
        currentDailyDuration: 0,
        dailyLimitSeconds: 28_800,
        nextRateIncrease: null,
      });
      timer = setInterval(() => {
        const seconds = Math.floor((Date.now() - started) / 1000);
        socket.emit('mining-update', {
          duration: seconds,
          minedAmount: fromBaseUnits((2_000_000n * BigInt(seconds)) / 3600n),
          miningRate: 2,
          platform: p.platform,
          currentDailyDuration: seconds,
        });
      }, intervalMs);
    });
    socket.on('disconnect', () => clearInterval(timer));
  });
  io.listen(0);
  const port = (io.httpServer.address() as { port: number }).port;
  process.on('message', (m: { type: string }) => {
    if (m.type === 'stats') send({ type: 'stats', rss: process.memoryUsage().rss, cpu: process.cpuUsage() });
    if (m.type === 'stop') process.exit(0);
  });
  send({ type: 'ready', port, wallets: wallets.map((w) => ({ wallet: w, token: '', username: w })) });
} else {
  const db = await benchDatabase();
  const config = loadConfig({
    NODE_ENV: 'test',
    DATABASE_URL: db.url,
    LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'silent',
    JWT_SECRET: 'bench-secret-bench-secret-bench-secret',
    DEMO_PLATFORM: 'on',
    MINING_UPDATE_INTERVAL_MS: String(intervalMs),
  });
  const activatedAt = new Date(Date.now() - 3 * 86_400_000);
  const records: StreamerRecords = {
    read: async () => ({ tierName: 'Tier 9', activatedAt, deposited: toBaseUnits(1_000_000) }),
    watch: () => () => {},
    readMany: async (wallets) =>
      new Map(
        wallets.map((w) => [w, { tierName: 'Tier 9', activatedAt, deposited: toBaseUnits(1_000_000) }]),
      ),
    ready: async () => true,
    close: () => {},
  };
  const demo = new DemoPlatform();
  const usernames = wallets.map((_w, i) => `bench_${i}`);
  for (let i = 0; i < count; i += 1000) {
    const slice = wallets.slice(i, i + 1000);
    await db.prisma.streamer.createMany({ data: slice.map((wallet) => ({ wallet })) });
    await db.prisma.platformAccount.createMany({
      data: slice.map((wallet, j) => ({
        wallet,
        platform: 'demo' as const,
        username: usernames[i + j]!,
        isVerified: true,
        verifiedAt: new Date(),
      })),
    });
  }
  for (const u of usernames) demo.setLive(u, true, 0);
  const app = createApp({
    config,
    prisma: db.prisma,
    chain: createChain('http://127.0.0.1:9'),
    clock: systemClock,
    logger: createLogger(process.env.BENCH_LOG_LEVEL ?? 'silent'),
    demoPlatform: demo,
    streamerRecords: records,
  });
  await app.mining.start();
  await new Promise<void>((resolve) => app.server.listen(0, '127.0.0.1', resolve));
  const port = (app.server.address() as { port: number }).port;
  process.on('message', async (m: { type: string }) => {
    if (m.type === 'stats') {
      send({
        type: 'stats',
        rss: process.memoryUsage().rss,
        cpu: process.cpuUsage(),
        live: app.mining.engine.liveCount,
        writes: { ...app.mining.engine.stats },
      });
    }
    if (m.type === 'stop') {
      app.io.close();
      await app.mining.stop();
      await db.stop();
      process.exit(0);
    }
  });
  send({
    type: 'ready',
    port,
    // The benchmark reads the database's transaction count itself (pg_stat_database).
    databaseUrl: db.url,
    wallets: wallets.map((wallet, i) => ({
      wallet,
      username: usernames[i],
      token: issueAuthToken(config, wallet, systemClock),
    })),
  });
}
