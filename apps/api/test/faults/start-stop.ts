// `./run start` as a person at a terminal uses it (docs/operations.md#stop-and-restart): started in its own
// process group (a terminal's foreground job), Ctrl-C as SIGINT to the whole group, started again, N times in
// a row; half the runs idle, half with live streamers. Each run must exit within 10 s with code 0 (130
// allowed), print no error-level line and no package manager's failure, leave no process behind (nothing runs
// with its data directory, no port of it answers) and have written its final checkpoint (every open session's
// accrued_until at or after the Ctrl-C). At the end every streamer stops: each must have had ONE session
// across all the restarts (resumed on reconnect, never closed and started anew), credited within a second of
// its live time.
//   pnpm --filter @strm/api test:start-stop   (START_STOP_RUNS=20, FAULTS_STREAMERS=20 live in the second half)
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Connection } from '@solana/web3.js';
import { freePort, freePortPair, type StartedProcess, startProcess } from '@strm/testing';
import pg from 'pg';
import { embeddedUrl } from '../../src/db/embedded.ts';
import { accepts, errorLines, processesUsing } from '../support/leftovers.ts';
import { chainInfoAt } from './chain.ts';
import { API_ENV } from './config.ts';
import { log } from './measure.ts';
import { credited, prepare, streamersOn } from './scenario.ts';
import type { Streamer } from './streamer.ts';
import { inBatches, sleep, waitUntil } from './wait.ts';

const RUNS = Number(process.env.START_STOP_RUNS ?? 20);
const STOP_LIMIT_MS = 10_000;
const repoRoot = fileURLToPath(new URL('../../../..', import.meta.url));

interface Run {
  run: number;
  live: number;
  readyS: number;
  stopS: number;
  code: number | null;
  errors: number;
  leftBehind: number;
  checkpointOk: string;
  ok: boolean;
}

async function main() {
  const dataDir = await mkdtemp(join(tmpdir(), 'strm-start-stop-'));
  await chmod(dataDir, 0o755);
  const chainPort = await freePortPair();
  let pgPort = await freePort();
  while (pgPort === chainPort || pgPort === chainPort + 1) pgPort = await freePort();
  let port = await freePort();
  while ([chainPort, chainPort + 1, pgPort].includes(port)) port = await freePort();
  const env = {
    ...process.env,
    ...API_ENV,
    LOCAL_CHAIN_BUILD: 'on',
    NODE_ENV: 'development',
    DATA_DIR: dataDir,
    PORT: String(port),
    EMBEDDED_PG_PORT: String(pgPort),
    LOCAL_CHAIN_PORT: String(chainPort),
    // The product's own checkpoint interval: the final checkpoint is what this checks.
    MINING_CHECKPOINT_INTERVAL_MS: '60000',
  };
  const url = `http://127.0.0.1:${port}`;
  const runs: Run[] = [];
  let streamers: Streamer[] = [];
  const startSent = new Map<string, number>();
  let lastCtrlC = 0;
  log(`./run start, Ctrl-C to its process group, ${RUNS} times (data in ${dataDir})`);
  try {
    for (let run = 1; run <= RUNS; run++) {
      const withLive = run > RUNS / 2;
      const started = Date.now();
      const product: StartedProcess = await startProcess('./run', ['start'], /ready at http/, {
        cwd: repoRoot,
        env,
        group: true,
        label: './run start',
        timeoutMs: 900_000,
      });
      const readyS = (Date.now() - started) / 1000;
      // Open sessions at the Ctrl-C before: each must carry a checkpoint written at or after it.
      let checkpointOk = '-';
      if (lastCtrlC) {
        const db = new pg.Client({
          connectionString: (await embeddedUrl(join(dataDir, 'postgres'), pgPort, 'strm'))!,
        });
        await db.connect();
        const { rows } = await db.query<{ accrued: Date }>(
          'SELECT accrued_until AS accrued FROM mining_sessions WHERE ended_at IS NULL',
        );
        await db.end();
        const written = rows.filter((r) => r.accrued.getTime() >= lastCtrlC - 1000).length;
        checkpointOk = `${written}/${rows.length}`;
      }
      if (withLive && !streamers.length) {
        const info = chainInfoAt(join(dataDir, 'chain'));
        streamers = await streamersOn(
          { connection: new Connection(info.rpcUrl, 'confirmed'), info },
          () => () => [url],
        );
        await prepare(streamers, url);
        await inBatches(streamers, 20, async (s) => {
          startSent.set(s.wallet, Date.now());
          await s.start();
        });
      }
      if (withLive) {
        // Every streamer back on this instance and mining before the next Ctrl-C.
        const since = Date.now();
        await waitUntil(() => streamers.every((s) => s.updates.some((t) => t > since)), 60_000, 'updates');
      }
      await sleep(2000);
      lastCtrlC = Date.now();
      process.kill(-product.child.pid!, 'SIGINT');
      const code = await Promise.race([product.exited, sleep(30_000).then(() => 'hung' as const)]);
      const stopS = (Date.now() - lastCtrlC) / 1000;
      if (code === 'hung') process.kill(-product.child.pid!, 'SIGKILL');
      await sleep(200);
      const left = [
        ...processesUsing(dataDir),
        ...((await accepts(pgPort)) ? [`port ${pgPort}`] : []),
        ...((await accepts(chainPort)) ? [`port ${chainPort}`] : []),
        ...((await accepts(port)) ? [`port ${port}`] : []),
      ];
      const errors = errorLines(product.output());
      for (const line of [...errors.slice(0, 5), ...left]) log(`  run ${run}: ${line.slice(0, 300)}`);
      const exitCode = code === 'hung' ? null : code;
      const ok =
        (exitCode === 0 || exitCode === 130) &&
        stopS * 1000 <= STOP_LIMIT_MS &&
        !errors.length &&
        !left.length &&
        (checkpointOk === '-' || checkpointOk.split('/')[0] === checkpointOk.split('/')[1]);
      runs.push({
        run,
        live: withLive ? streamers.length : 0,
        readyS: Math.round(readyS * 10) / 10,
        stopS: Math.round(stopS * 10) / 10,
        code: exitCode,
        errors: errors.length,
        leftBehind: left.length,
        checkpointOk,
        ok,
      });
      log(`run ${run}: ${JSON.stringify(runs.at(-1))}`);
      // Left running (a failed stop), the next start must deal with it: that is part of what is measured.
    }

    // The last start: every streamer reconnects, then stops; one session each, nothing lost.
    let lostMax = 0;
    let held = 0;
    if (streamers.length) {
      const product = await startProcess('./run', ['start'], /ready at http/, {
        cwd: repoRoot,
        env,
        group: true,
        label: './run start',
        timeoutMs: 900_000,
      });
      const since = Date.now();
      await waitUntil(() => streamers.every((s) => s.updates.some((t) => t > since)), 60_000, 'updates');
      const stopSent = new Map<string, number>();
      await inBatches(streamers, 20, async (s) => {
        stopSent.set(s.wallet, Date.now());
        await s.stop();
      });
      const db = new pg.Client({
        connectionString: (await embeddedUrl(join(dataDir, 'postgres'), pgPort, 'strm'))!,
      });
      await db.connect();
      ({ held, lostMax } = await credited(db, streamers, startSent, stopSent));
      await db.end();
      for (const s of streamers) s.close();
      process.kill(-product.child.pid!, 'SIGINT');
      await product.exited;
    }
    console.table(runs);
    const failed = runs.filter((r) => !r.ok).length;
    const sessionsOk = !streamers.length || (held === streamers.length && lostMax < 1);
    log(
      `${RUNS - failed}/${RUNS} runs stopped cleanly; ` +
        (streamers.length
          ? `${held}/${streamers.length} sessions held across ${runs.filter((r) => r.live).length} restarts, accrual lost at most ${lostMax.toFixed(2)} s beyond 1 s of request travel`
          : 'no live runs'),
    );
    process.exitCode = failed || !sessionsOk ? 1 : 0;
  } finally {
    for (const s of streamers) s.close();
    await rm(dataDir, { recursive: true, force: true }).catch(() => {});
  }
}

await main();
process.exit(process.exitCode ?? 0);
