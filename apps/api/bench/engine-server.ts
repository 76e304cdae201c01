// The benchmark's server process: the real app (handshake, engine, database writes, Socket.IO) on an
// embedded PostgreSQL and the project's local chain, with N streamers whose demo accounts are verified and
// live. Every streamer's record is a real account of the mining program on that chain (written with the
// chain's strm_setAccount cheat code: N activations would take longer than the benchmark), read at each
// session start and watched for the whole session through the real PubSub path. Or, with BENCH_BARE=1, a
// bare Socket.IO server sending the same messages on the same schedule with per-socket timers.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Keypair, PublicKey } from '@solana/web3.js';
import { startLocalChain } from '@strm/local-chain';
import { encodeStreamer, miningProgram, streamerPda } from '@strm/mining-client';
import { fromBaseUnits, toBaseUnits } from '@strm/shared';
import { Server } from 'socket.io';
import { createApp } from '../src/app.ts';
import { flatBase58 } from '../src/rpc/base58.ts';
import { limitHeapGrowth } from '../src/heap.ts';
import { createRpc } from '../src/rpc/rpc.ts';
import { systemClock } from '../src/clock.ts';
import { loadConfig } from '../src/config.ts';
import { createLogger } from '../src/logger.ts';
import { DemoPlatform } from '../src/platforms/demo.ts';
import { chainStreamerRecords } from '../src/rpc/streamer-records.ts';
import { issueAuthToken } from '../src/services/auth/tokens.ts';
import { freePort } from '@strm/testing';
import { answerProfiling, benchDatabase, serverStats } from './support.ts';

const count = Number(process.env.BENCH_STREAMERS ?? 10_000);
const intervalMs = Number(process.env.BENCH_UPDATE_MS ?? 5000);
const bare = process.env.BENCH_BARE === '1';
const send = (message: unknown) => process.send?.(message);

// Flat strings (src/rpc/base58.ts): the harness's own list of wallets must not weigh on the heap of the
// server it measures.
const wallets = Array.from({ length: count }, () => flatBase58(Keypair.generate().publicKey));
// BENCH_CPU_PROF: the benchmark asks for a profile of its measured window.
await answerProfiling();

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
    if (m.type === 'stats')
      send({
        type: 'stats',
        rss: process.memoryUsage().rss,
        memory: process.memoryUsage(),
        cpu: process.cpuUsage(),
      });
    if (m.type === 'stop') process.exit(0);
  });
  send({ type: 'ready', port, wallets: wallets.map((w) => ({ wallet: w, token: '', username: w })) });
} else {
  // As the API's entry point does (src/main.ts).
  limitHeapGrowth();
  const db = await benchDatabase();
  const config = loadConfig({
    NODE_ENV: 'test',
    DATABASE_URL: db.url,
    LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'silent',
    JWT_SECRET: 'bench-secret-bench-secret-bench-secret',
    DEMO_PLATFORM: 'on',
    MINING_UPDATE_INTERVAL_MS: String(intervalMs),
    ...(process.env.MINING_TICK_MS ? { MINING_TICK_MS: process.env.MINING_TICK_MS } : {}),
    ...(process.env.SESSION_SWEEP_MS ? { SESSION_SWEEP_MS: process.env.SESSION_SWEEP_MS } : {}),
    ...(process.env.MINING_CHECKPOINT_INTERVAL_MS
      ? { MINING_CHECKPOINT_INTERVAL_MS: process.env.MINING_CHECKPOINT_INTERVAL_MS }
      : {}),
    // Every client connects from this machine.
    SOCKET_HANDSHAKES_PER_MINUTE: '1000000',
  });
  const chainDir = await mkdtemp(join(tmpdir(), 'strm-bench-chain-'));
  // LOCAL_CHAIN_BUILD=off: the chain binary this clone has, without waiting for cargo (as the product's own).
  const local = await startLocalChain({
    dataDir: chainDir,
    rpcPort: await freePort(),
    reset: true,
    build: process.env.LOCAL_CHAIN_BUILD !== 'off',
  });
  const rpc = createRpc(local.rpcUrl, local.wsUrl);
  const program = miningProgram(rpc.connection);
  const activatedAt = Math.floor(Date.now() / 1000) - 3 * 86_400;
  const written = Date.now();
  for (let i = 0; i < count; i += 32) {
    await Promise.all(
      wallets.slice(i, i + 32).map(async (wallet) => {
        const owner = new PublicKey(wallet);
        const data = await encodeStreamer(program, {
          wallet: owner,
          tierName: 'Tier 9',
          isActive: true,
          activatedAt,
          deposited: toBaseUnits(1_000_000),
        });
        const address = streamerPda(owner, program.programId);
        await local.setAccount(address, { lamports: 2_000_000, data, owner: program.programId });
      }),
    );
  }
  const chainRecordsMs = Date.now() - written;
  const records = chainStreamerRecords(program, {
    wsUrl: local.wsUrl,
    logger: createLogger(process.env.BENCH_LOG_LEVEL ?? 'silent'),
    now: () => Date.now(),
  });
  const demo = new DemoPlatform();
  const usernames = wallets.map((_w, i) => `bench_${i}`);
  for (let i = 0; i < count; i += 1000) {
    const slice = wallets.slice(i, i + 1000);
    await db.prisma.streamer.createMany({ data: slice.map((wallet) => ({ wallet })) });
    // The streamers are beta users (the server refuses a socket without access).
    await db.prisma.betaAccess.createMany({ data: slice.map((wallet) => ({ wallet, grantedBy: 'bench' })) });
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
    rpc,
    clock: systemClock,
    logger: createLogger(process.env.BENCH_LOG_LEVEL ?? 'silent'),
    demoPlatform: demo,
    streamerRecords: records,
  });
  await app.services.start();
  await new Promise<void>((resolve) => app.server.listen(0, '127.0.0.1', resolve));
  const port = (app.server.address() as { port: number }).port;
  process.on('message', async (m: { type: string }) => {
    if (m.type === 'stats') {
      send({
        ...serverStats(app),
        writes: { ...app.services.counters },
        chainWatch: { ...records.stats },
      });
    }
    if (m.type === 'stop') {
      app.io.close();
      await app.services.stop();
      await db.stop();
      await local.stop();
      await rm(chainDir, { recursive: true, force: true });
      process.exit(0);
    }
  });
  send({
    type: 'ready',
    port,
    // The benchmark reads the database's transaction count itself (pg_stat_database).
    databaseUrl: db.url,
    chainRecordsMs,
    wallets: wallets.map((wallet, i) => ({
      wallet,
      username: usernames[i],
      token: issueAuthToken(config, wallet, systemClock),
    })),
  });
}
