// Faults 1 to 3: ./run start's own PostgreSQL and chain, supervised by the API; and the API itself killed
// (SIGKILL, as the OOM killer or a crash) and started again as a person would, with no manual step between.
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Connection } from '@solana/web3.js';
import { freePort, freePortPair } from '@strm/testing';
import { embeddedUrl } from '../../src/db/embedded.ts';
import { childPid, health, startApi } from './api-process.ts';
import { chainInfoAt } from './chain.ts';
import { API_ENV, CHAIN_STALL_S, wanted } from './config.ts';
import { cleanups, prepare, scenario, streamersOn } from './scenario.ts';
import { sleep, waitUntil } from './wait.ts';

export async function embeddedScenarios() {
  const dataDir = await mkdtemp(join(tmpdir(), 'strm-faults-local-'));
  await chmod(dataDir, 0o755);
  cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
  // Ports chosen before anything binds them: distinct, or the embedded PostgreSQL may take the chain's.
  const chainPort = await freePortPair();
  const taken = new Set([chainPort, chainPort + 1]);
  const distinctPort = async () => {
    for (;;) {
      const port = await freePort();
      if (!taken.has(port)) {
        taken.add(port);
        return port;
      }
    }
  };
  const pgPort = await distinctPort();
  let api = await startApi('local', {
    ...API_ENV,
    PORT: String(await distinctPort()),
    DATA_DIR: dataDir,
    EMBEDDED_PG_PORT: String(pgPort),
    LOCAL_CHAIN_PORT: String(chainPort),
  });
  cleanups.unshift(() => api.stop());
  const info = chainInfoAt(join(dataDir, 'chain'));
  const localChain = { connection: new Connection(info.rpcUrl, 'confirmed'), info };
  const streamers = await streamersOn(localChain, () => () => (api.alive() ? [api.url] : []));
  await prepare(streamers, api.url);
  const databaseUrl = (await embeddedUrl(join(dataDir, 'postgres'), pgPort, 'strm'))!;

  if (wanted('embedded-pg')) {
    await scenario({
      name: 'embedded PostgreSQL kill -9',
      apis: () => [api],
      streamers,
      databaseUrl,
      localChain,
      async fault() {
        const faultAt = Date.now();
        process.kill(childPid(api, 'postgres'), 'SIGKILL');
        await waitUntil(async () => (await health(api)).body?.database?.state === 'ok', 60_000, 'restart');
        return { faultAt, returnedAt: faultAt, note: 'restarted by the API' };
      },
    });
  }
  if (wanted('chain')) {
    await scenario({
      name: `chain SIGSTOP ${CHAIN_STALL_S} s`,
      apis: () => [api],
      streamers,
      databaseUrl,
      localChain,
      async fault() {
        const pid = childPid(api, 'strm-local-chai');
        const faultAt = Date.now();
        process.kill(pid, 'SIGSTOP');
        let slowest = 0;
        const states = new Set<string>();
        while (Date.now() - faultAt < CHAIN_STALL_S * 1000) {
          const h = await health(api);
          slowest = Math.max(slowest, h.ms);
          states.add(h.body?.chain?.state ?? 'no answer');
          await sleep(500);
        }
        process.kill(pid, 'SIGCONT');
        return {
          faultAt,
          returnedAt: Date.now(),
          note: `/health during the stall: ${[...states].join(', ')} within ${Math.ceil(slowest)} ms`,
        };
      },
    });
  }
  if (wanted('api-kill')) {
    const first = api;
    await scenario({
      name: 'API SIGKILL, then ./run start again (embedded defaults)',
      apis: () => [api],
      streamers,
      databaseUrl,
      localChain,
      killed: () => [first],
      // Every session resumes on its streamer's reconnect: none is closed and started anew.
      mustHoldAll: true,
      async fault() {
        const faultAt = Date.now();
        first.kill('SIGKILL');
        // The killed API's embedded PostgreSQL outlives it (its own process group); the local chain exits with
        // the API (its stdin closes). The next start must find and stop the server it left.
        await waitUntil(async () => !first.alive(), 10_000, 'the API gone');
        api = await startApi('local (./run start again)', first.env, { viaRunStart: true });
        return { faultAt, returnedAt: Date.now(), note: 'the next start stopped the PostgreSQL it left' };
      },
    });
  }
  for (const s of streamers) s.close();
  await api.stop();
  // Its chain is gone with it: this connection's WebSocket would try again forever.
  (localChain.connection as unknown as { _rpcWebSocket?: { close(): void } })._rpcWebSocket?.close();
}
