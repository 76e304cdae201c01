// The fault suite (issue 26): the real API processes, with N live streamers, through each fault an operator
// meets: the embedded PostgreSQL killed, an external PostgreSQL stopped, the chain stalled, Redis restarted,
// one of two instances killed, a single instance killed and restarted. For each it prints sessions held,
// mining-updates delivered against expected during and after the fault, accrual lost, payouts made twice,
// process exits and the time to recover; it fails (exit 1) when a figure misses the issue's acceptance or an
// API process logged an unhandled promise rejection.
//   pnpm test:faults   (FAULTS_STREAMERS=20, FAULTS_PG_OUTAGE_S=30, FAULTS_CHAIN_STALL_S=20,
//                       FAULTS_REDIS_OUTAGE_S=10, FAULTS_RESTART_DELAY_S=5, FAULTS_ONLY=embedded-pg,chain,
//                       external-pg,redis,instance,restart)
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { getAssociatedTokenAddressSync } from '@solana/spl-token';
import { Connection, Keypair, PublicKey } from '@solana/web3.js';
import { binaryPath, startLocalChain } from '@strm/local-chain';
import { freePort, freePortPair } from '@strm/testing';
import pg from 'pg';
import { systemClock } from '../../src/clock.ts';
import { loadConfig } from '../../src/config.ts';
import { embeddedUrl } from '../../src/db/embedded.ts';
import { issueAuthToken } from '../../src/services/auth/tokens.ts';
import {
  type ApiProcess,
  activatedWallet,
  type ChainAccess,
  chainInfoAt,
  childPid,
  health,
  inBatches,
  privatePostgres,
  redisServer,
  type RedisServer,
  Streamer,
  selfTransfer,
  sleep,
  startApi,
  waitUntil,
} from './support.ts';

const env = process.env;
const N = Number(env.FAULTS_STREAMERS ?? 20);
const PG_OUTAGE_S = Number(env.FAULTS_PG_OUTAGE_S ?? 30);
const CHAIN_STALL_S = Number(env.FAULTS_CHAIN_STALL_S ?? 20);
const REDIS_OUTAGE_S = Number(env.FAULTS_REDIS_OUTAGE_S ?? 10);
const RESTART_DELAY_S = Number(env.FAULTS_RESTART_DELAY_S ?? 5);
const ONLY = env.FAULTS_ONLY?.split(',');
const CHECKPOINT_MS = 5000;
const UPDATE_MS = 1000;
const AFTER_MS = 10_000;
const RECOVERY_LIMIT_S = 10;
const jwtSecret = randomBytes(24).toString('hex');
/** The suite's admin: it gives the streamers beta access through the API (the server refuses them without). */
const admin = Keypair.generate().publicKey.toBase58();
const adminToken = issueAuthToken(
  loadConfig({ NODE_ENV: 'test', JWT_SECRET: jwtSecret, DATABASE_URL: 'postgres://x/y' }),
  admin,
  systemClock,
);

const API_ENV = {
  JWT_SECRET: jwtSecret,
  DEMO_PLATFORM: 'on',
  LOCAL_CHAIN_BUILD: 'off',
  MINING_UPDATE_INTERVAL_MS: String(UPDATE_MS),
  MINING_CHECKPOINT_INTERVAL_MS: String(CHECKPOINT_MS),
  INSTANCE_LEASE_MS: '3000',
  RATE_LIMIT_PER_MINUTE: '100000',
  ADMIN_WALLETS: admin,
  // Every streamer connects (and reconnects through each fault) from this machine.
  SOCKET_HANDSHAKES_PER_MINUTE: '1000000',
};

interface Result {
  fault: string;
  held: string;
  during: string;
  gapS: number;
  after: string;
  lostS: number;
  doublePayouts: number;
  exits: number;
  recoverS: number;
  note: string;
  ok: boolean;
}
const results: Result[] = [];
const cleanups: Array<() => Promise<unknown>> = [];

function log(line: string) {
  process.stdout.write(`${new Date().toISOString().slice(11, 19)} ${line}\n`);
}

function updatesIn(streamers: Streamer[], from: number, to: number): number {
  let n = 0;
  for (const s of streamers) for (const t of s.updates) if (t >= from && t < to) n++;
  return n;
}

/** The longest any streamer waited for an update between `from` and `to` (seconds). */
function longestGap(streamers: Streamer[], from: number, to: number): number {
  let longest = 0;
  for (const s of streamers) {
    let last = from;
    for (const t of s.updates) {
      if (t < from || t > to) continue;
      longest = Math.max(longest, t - last);
      last = t;
    }
    longest = Math.max(longest, to - last);
  }
  return longest / 1000;
}

async function tokenUnits(localChain: ChainAccess, owner: PublicKey): Promise<bigint> {
  const ata = getAssociatedTokenAddressSync(new PublicKey(localChain.info.mint), owner);
  const info = await localChain.connection.getTokenAccountBalance(ata, 'confirmed').catch(() => null);
  return BigInt(info?.value.amount ?? '0');
}

interface Setup {
  name: string;
  apis: () => ApiProcess[];
  streamers: Streamer[];
  databaseUrl: string;
  localChain: ChainAccess;
  /** Does the fault; resolves when the dependency is back (or at once for a kill): those two moments. */
  fault: () => Promise<{ faultAt: number; returnedAt: number; note?: string }>;
  /** Instances whose exit is the fault itself (not counted). */
  killed?: () => ApiProcess[];
}

async function scenario(setup: Setup): Promise<void> {
  const { streamers, localChain } = setup;
  log(`${setup.name}: ${streamers.length} streamers go live`);
  const exitsBefore = setup.apis().reduce((n, a) => n + a.unexpectedExits, 0);
  const startSent = new Map<string, number>();
  await inBatches(streamers, 20, async (s) => {
    startSent.set(s.wallet, Date.now());
    await s.start();
  });
  await sleep(3000);

  const { faultAt, returnedAt, note } = await setup.fault();
  log(`${setup.name}: dependency back; waiting for recovery`);
  // Recovered: every instance's /health is ok and every streamer has had an update since the return.
  let recoveredAt = Number.NaN;
  try {
    await waitUntil(
      async () => {
        if (!streamers.every((s) => s.updates.some((t) => t > returnedAt))) return false;
        for (const api of setup.apis().filter((a) => a.alive())) {
          if ((await health(api)).body?.status !== 'ok') return false;
        }
        return true;
      },
      120_000,
      `${setup.name}: recovery`,
    );
    recoveredAt = Date.now();
  } catch (err) {
    log(String(err));
  }
  const recoverS = (recoveredAt - returnedAt) / 1000;
  const duringEnd = Number.isNaN(recoveredAt) ? Date.now() : recoveredAt;
  const duringDelivered = updatesIn(streamers, faultAt, duringEnd);
  const duringExpected = Math.floor((streamers.length * (duringEnd - faultAt)) / UPDATE_MS);
  const afterFrom = Date.now();
  await sleep(AFTER_MS);
  const afterDelivered = updatesIn(streamers, afterFrom, afterFrom + AFTER_MS);
  const gapS = longestGap(streamers, faultAt, afterFrom + AFTER_MS);
  const afterExpected = Math.floor((streamers.length * AFTER_MS) / UPDATE_MS);

  log(`${setup.name}: streams stopped; reading what was credited`);
  const stopSent = new Map<string, number>();
  await inBatches(streamers, 20, async (s) => {
    stopSent.set(s.wallet, Date.now());
    await s.stop().catch((err: unknown) => log(String(err)));
  });
  const db = new pg.Client({ connectionString: setup.databaseUrl });
  await db.connect();
  let held = 0;
  let lostMax = 0;
  const since = new Date(Math.min(...startSent.values()) - 1000);
  for (const s of streamers) {
    const { rows } = await db.query<{ started: Date; ended: Date | null; reason: string | null }>(
      `SELECT started_at AS started, ended_at AS ended, end_reason AS reason FROM mining_sessions
        WHERE wallet = $1 AND started_at >= $2 ORDER BY started_at`,
      [s.wallet, since],
    );
    if (rows.length === 1 && rows[0]!.reason === 'stopped') held++;
    const credited = rows.reduce(
      (sum, r) => sum + ((r.ended ?? r.started).getTime() - r.started.getTime()),
      0,
    );
    const live = stopSent.get(s.wallet)! - startSent.get(s.wallet)!;
    // A second of slack: the start and stop requests' own travel.
    lostMax = Math.max(lostMax, Math.max(0, (live - credited) / 1000 - 1));
  }

  // Every streamer collects: paid exactly what was credited, once (a payout made twice would show here).
  log(`${setup.name}: every streamer collects`);
  const collectFrom = new Date();
  let doublePayouts = 0;
  let paid = 0;
  await inBatches(streamers, 10, async (s) => {
    const { rows } = await db.query<{ pending: string }>(
      'SELECT pending_reward_units::text AS pending FROM streamers WHERE wallet = $1',
      [s.wallet],
    );
    const pending = BigInt(rows[0]?.pending ?? '0');
    if (pending <= 0n) return;
    const before = await tokenUnits(localChain, s.keypair.publicKey);
    const signature = await selfTransfer(localChain, s.keypair);
    const [event, p] = await s.request('collect-rewards', { signature, wallet: s.wallet }, [
      'rewards-collected',
      'rewards-error',
    ]);
    if (event === 'rewards-collected') paid++;
    else log(`${s.wallet}: collect refused: ${JSON.stringify(p)}`);
    const received = (await tokenUnits(localChain, s.keypair.publicKey)) - before;
    if (received > pending) doublePayouts++;
  });
  const { rows: claims } = await db.query<{ n: string }>(
    `SELECT count(*)::text AS n FROM (SELECT wallet FROM reward_claims WHERE status = 'confirmed' AND created_at >= $1
      GROUP BY wallet HAVING count(*) > 1) twice`,
    [collectFrom],
  );
  doublePayouts += Number(claims[0]?.n ?? 0);
  await db.end();

  const all = [...setup.apis(), ...(setup.killed?.() ?? [])];
  const exits = all.reduce((n, a) => n + a.unexpectedExits, 0) - exitsBefore;
  const unhandled = all.reduce((n, a) => n + a.unhandled(), 0);
  const droppedAllowed = setup.killed ? streamers.length : 0;
  const ok =
    exits === 0 &&
    unhandled === 0 &&
    streamers.length - held <= droppedAllowed &&
    lostMax <= CHECKPOINT_MS / 1000 &&
    doublePayouts === 0 &&
    recoverS <= RECOVERY_LIMIT_S;
  results.push({
    fault: setup.name,
    held: `${held}/${streamers.length}`,
    during: `${duringDelivered}/${duringExpected}`,
    gapS: Math.round(gapS * 10) / 10,
    after: `${afterDelivered}/${afterExpected}`,
    lostS: Math.round(lostMax * 10) / 10,
    doublePayouts,
    exits,
    recoverS: Math.round(recoverS * 10) / 10,
    note: [note, `${paid} collects paid`, unhandled ? `${unhandled} unhandled rejections` : '']
      .filter(Boolean)
      .join('; '),
    ok,
  });
  log(`${setup.name}: ${JSON.stringify(results.at(-1))}`);
}

async function streamersOn(
  localChain: ChainAccess,
  urls: (i: number) => () => string[],
): Promise<Streamer[]> {
  log(`activating ${N} wallets on chain`);
  const wallets = await inBatches(
    Array.from({ length: N }, (_, i) => i),
    10,
    async () => activatedWallet(localChain),
  );
  return wallets.map(({ keypair, signature }, i) => new Streamer(keypair, signature, jwtSecret, urls(i)));
}

async function prepare(streamers: Streamer[], url: string, liveOn: string[] = [url]) {
  await inBatches(streamers, 10, async (s) => {
    const granted = await fetch(`${url}/api/v1/admin/beta-access/${s.wallet}`, {
      method: 'PUT',
      headers: { Authorization: `Bearer ${adminToken}` },
    });
    if (!granted.ok) throw new Error(`granting access: ${granted.status} ${await granted.text()}`);
    if (!s.socket?.connected) await s.connect();
    await s.prepare(url, liveOn);
  });
}

const wanted = (name: string) => !ONLY || ONLY.includes(name);

// ---- 1 and 2: ./run start's own PostgreSQL and chain, supervised -------------------------------------

async function embeddedScenarios() {
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
  const api = await startApi('local', {
    ...API_ENV,
    PORT: String(await distinctPort()),
    DATA_DIR: dataDir,
    EMBEDDED_PG_PORT: String(pgPort),
    LOCAL_CHAIN_PORT: String(chainPort),
  });
  cleanups.unshift(() => api.stop());
  const info = chainInfoAt(join(dataDir, 'chain'));
  const localChain = { connection: new Connection(info.rpcUrl, 'confirmed'), info };
  const streamers = await streamersOn(localChain, () => () => [api.url]);
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
  for (const s of streamers) s.close();
  await api.stop();
  // Its chain is gone with it: this connection's WebSocket would try again forever.
  (localChain.connection as unknown as { _rpcWebSocket?: { close(): void } })._rpcWebSocket?.close();
}

// ---- 3 to 6: external PostgreSQL, Redis, several instances --------------------------------------------

async function main() {
  const started = Date.now();
  log(`fault suite: ${N} streamers per fault`);
  try {
    if (wanted('embedded-pg') || wanted('chain')) await embeddedScenarios();
    if (['external-pg', 'redis', 'instance', 'restart'].some(wanted)) await sharedChainScenarios();
  } finally {
    for (const cleanup of cleanups) await cleanup().catch(() => {});
  }
  printTable();
  log(`fault suite took ${Math.round((Date.now() - started) / 1000)} s`);
  if (results.some((r) => !r.ok)) process.exit(1);
  process.exit(0);
}

async function sharedChainScenarios() {
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

function printTable() {
  const header = [
    'fault',
    'sessions held',
    'updates during (got/due)',
    'longest update gap (s)',
    'updates 10 s after',
    'accrual lost (s)',
    'double payouts',
    'process exits',
    'recovered (s)',
    'notes',
  ];
  const rows = results.map((r) => [
    `${r.ok ? '' : '✗ '}${r.fault}`,
    r.held,
    r.during,
    String(r.gapS),
    r.after,
    String(r.lostS),
    String(r.doublePayouts),
    String(r.exits),
    Number.isNaN(r.recoverS) ? 'not recovered' : String(r.recoverS),
    r.note,
  ]);
  process.stdout.write(`\n| ${header.join(' | ')} |\n|${header.map(() => '---').join('|')}|\n`);
  for (const row of rows) process.stdout.write(`| ${row.join(' | ')} |\n`);
  process.stdout.write(
    `\n${N} streamers per fault; updates every ${UPDATE_MS / 1000} s, checkpoints every ${CHECKPOINT_MS / 1000} s; acceptance: 0 exits, 0 unhandled rejections, no session dropped off the killed instance, accrual lost ≤ one checkpoint interval, 0 double payouts, recovered within ${RECOVERY_LIMIT_S} s of the dependency's return\n`,
  );
}

await main();
