// Faults 3 to 6 on one local chain of the suite's own: external PostgreSQL, Redis, several instances.
import { existsSync } from 'node:fs';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { binaryPath, startLocalChain } from '@strm/local-chain';
import { freePortPair } from '@strm/testing';
import { startApi } from './api-process.ts';
import { API_ENV, jwtSecret, N, PG_OUTAGE_S, REDIS_OUTAGE_S, RESTART_DELAY_S, wanted } from './config.ts';
import { cleanups, prepare, scenario, streamersOn } from './scenario.ts';
import { privatePostgres, type RedisServer, redisServer } from './services.ts';
import { Streamer } from './streamer.ts';
import { sleep, waitUntil } from './wait.ts';

export async function sharedChainScenarios() {
  const chainDir = await mkdtemp(join(tmpdir(), 'strm-faults-chain-'));
  await chmod(chainDir, 0o755);
  cleanups.push(() => rm(chainDir, { recursive: true, force: true }));
  const local = await startLocalChain({
    dataDir: chainDir,
    rpcPort: await freePortPair(),
    reset: true,
    build: !existsSync(binaryPath()),
  });
  cleanups.unshift(() => local.stop());
  const pgServer = await privatePostgres();
  cleanups.unshift(() => pgServer.destroy());
  const localChain = { connection: local.connection, info: local.info };
  const base = { ...API_ENV, LOCAL_CHAIN_DIR: chainDir };

  if (wanted('external-pg')) {
    const databaseUrl = await pgServer.createDatabase('faults_external');
    const api = await startApi('external', { ...base, DATABASE_URL: databaseUrl });
    cleanups.unshift(() => api.stop());
    const streamers = await streamersOn(localChain, () => () => [api.url]);
    await prepare(streamers, api.url);
    await scenario({
      name: `external PostgreSQL stopped ${PG_OUTAGE_S} s`,
      apis: () => [api],
      streamers,
      databaseUrl,
      localChain,
      async fault() {
        const faultAt = Date.now();
        pgServer.stop();
        await sleep(PG_OUTAGE_S * 1000);
        pgServer.start();
        return { faultAt, returnedAt: Date.now() };
      },
    });
    for (const s of streamers) s.close();
    await api.stop();
  }

  if (wanted('redis') || wanted('instance')) {
    const redis: RedisServer = await redisServer();
    cleanups.unshift(() => redis.stop());
    const databaseUrl = await pgServer.createDatabase('faults_cluster');
    const envC = { ...base, DATABASE_URL: databaseUrl, REDIS_URL: redis.url };
    const a = await startApi('instance A', envC);
    cleanups.unshift(() => a.stop());
    const b = await startApi('instance B', envC);
    cleanups.unshift(() => b.stop());
    const apis = [a, b];
    // Half the streamers on each instance; a load balancer sends a reconnecting client to one alive.
    const streamers = await streamersOn(localChain, (i) => () => {
      const own = apis[i % 2]!;
      return [own, ...apis.filter((x) => x !== own)].filter((x) => x.alive()).map((x) => x.url);
    });
    await prepare(streamers, a.url, [a.url, b.url]);
    if (wanted('redis')) {
      // A second tab of the first streamer on the other instance: its updates cross through Redis.
      const first = streamers[0]!;
      const otherTab = new Streamer(first.keypair, first.activation, jwtSecret, () => [b.url]);
      await otherTab.connect();
      let crossResumedS = Number.NaN;
      await scenario({
        name: `Redis restarted (down ${REDIS_OUTAGE_S} s), 2 instances`,
        apis: () => apis,
        streamers,
        databaseUrl,
        localChain,
        async fault() {
          const faultAt = Date.now();
          await redis.stop();
          await sleep(REDIS_OUTAGE_S * 1000);
          await redis.start();
          const returnedAt = Date.now();
          await waitUntil(
            () => otherTab.updates.some((t) => t > returnedAt),
            60_000,
            'cross-instance updates',
          ).catch(() => {});
          crossResumedS = (Math.min(...otherTab.updates.filter((t) => t > returnedAt)) - returnedAt) / 1000;
          return {
            faultAt,
            returnedAt,
            note: `cross-instance delivery back ${Number.isFinite(crossResumedS) ? `after ${crossResumedS.toFixed(1)} s` : 'never'}`,
          };
        },
      });
      otherTab.close();
    }
    if (wanted('instance')) {
      await scenario({
        name: 'one of 2 instances SIGKILLed',
        apis: () => [a],
        streamers,
        databaseUrl,
        localChain,
        killed: () => [b],
        async fault() {
          const faultAt = Date.now();
          b.kill('SIGKILL');
          return { faultAt, returnedAt: faultAt, note: `${N / 2} sessions taken over by the other instance` };
        },
      });
    }
    for (const s of streamers) s.close();
    await Promise.all(apis.map((x) => x.stop()));
  }

  if (wanted('restart')) {
    const databaseUrl = await pgServer.createDatabase('faults_restart');
    let api = await startApi('single', { ...base, DATABASE_URL: databaseUrl });
    const first = api;
    cleanups.unshift(() => api.stop());
    const streamers = await streamersOn(localChain, () => () => (api.alive() ? [api.url] : []));
    await prepare(streamers, api.url);
    await scenario({
      name: `single instance SIGKILLed, restarted after ${RESTART_DELAY_S} s`,
      apis: () => [api],
      streamers,
      databaseUrl,
      localChain,
      killed: () => [first],
      async fault() {
        const faultAt = Date.now();
        api.kill('SIGKILL');
        await sleep(RESTART_DELAY_S * 1000);
        api = await startApi('single (restarted)', first.env);
        return { faultAt, returnedAt: Date.now(), note: 'sessions resumed on reconnect' };
      },
    });
    for (const s of streamers) s.close();
    await api.stop();
  }
}
