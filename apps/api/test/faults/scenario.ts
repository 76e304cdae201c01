// One fault, run and measured: streamers go live, the fault happens, recovery is awaited, then what was
// delivered, credited and paid is read. Also the streamers' setup every scenario shares.
import pg from 'pg';
import { type ApiProcess, health } from './api-process.ts';
import { activatedWallet, type ChainAccess, selfTransfer } from './chain.ts';
import { AFTER_MS, adminToken, CHECKPOINT_MS, jwtSecret, N, RECOVERY_LIMIT_S, UPDATE_MS } from './config.ts';
import { log, longestGap, type Result, tokenUnits, updatesIn } from './measure.ts';
import { Streamer } from './streamer.ts';
import { inBatches, sleep, waitUntil } from './wait.ts';

export const results: Result[] = [];
export const cleanups: Array<() => Promise<unknown>> = [];

export interface Setup {
  name: string;
  apis: () => ApiProcess[];
  streamers: Streamer[];
  databaseUrl: string;
  localChain: ChainAccess;
  /** Does the fault; resolves when the dependency is back (or at once for a kill): those two moments. */
  fault: () => Promise<{ faultAt: number; returnedAt: number; note?: string }>;
  /** Instances whose exit is the fault itself (not counted). */
  killed?: () => ApiProcess[];
  /**
   * With `killed`: every session must still be held (resumed by the next instance, not closed and started
   * anew), save 1 in 100; otherwise a killed instance's sessions may end.
   */
  mustHoldAll?: boolean;
}

export async function scenario(setup: Setup): Promise<void> {
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
  const { held, lostMax } = await credited(db, streamers, startSent, stopSent);

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
  const droppedAllowed =
    setup.killed && !setup.mustHoldAll ? streamers.length : Math.floor(streamers.length / 100);
  const ok =
    exits === 0 &&
    unhandled === 0 &&
    streamers.length - held <= droppedAllowed &&
    // A resumed session loses nothing (a second of slack is already allowed above); one closed at its last
    // checkpoint loses at most an interval.
    lostMax <= (setup.mustHoldAll ? 1 : CHECKPOINT_MS / 1000) &&
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

/**
 * What the streamers' sessions credited since their start: how many were held as one session ended by their
 * stop, and the most live time any lost (live seconds from start to stop sent, against credited seconds read
 * from the database, with a second of slack for the requests' own travel).
 */
export async function credited(
  db: pg.Client,
  streamers: Streamer[],
  startSent: Map<string, number>,
  stopSent: Map<string, number>,
): Promise<{ held: number; lostMax: number }> {
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
    const creditedMs = rows.reduce(
      (sum, r) => sum + ((r.ended ?? r.started).getTime() - r.started.getTime()),
      0,
    );
    const live = stopSent.get(s.wallet)! - startSent.get(s.wallet)!;
    lostMax = Math.max(lostMax, Math.max(0, (live - creditedMs) / 1000 - 1));
  }
  return { held, lostMax };
}

export async function streamersOn(
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

export async function prepare(streamers: Streamer[], url: string, liveOn: string[] = [url]) {
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
