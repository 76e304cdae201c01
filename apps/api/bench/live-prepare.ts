// bench:live's preparation: real streamers made through the running product's own endpoints, as a browser
// and a wallet would, each with a client address of its own (sent as X-Forwarded-For, which the API trusts
// from loopback by default, as behind a proxy): signed in (nonce + signed message), registered for the beta,
// granted beta access by an admin (made one with the product's admin CLI), funded by the dev faucet, its tier
// activated on the local chain by a transaction it signs and reported to the API (`activate-tier`), its demo
// channel linked. Prepared streamers are kept in a file (their keys and tokens), so a later run only
// prepares the ones missing.
import { execFileSync } from 'node:child_process';
import { appendFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Connection, Keypair, sendAndConfirmTransaction, Transaction } from '@solana/web3.js';
import { activateTierInstructions, miningProgram, readConfig } from '@strm/mining-client';
import bs58 from 'bs58';
import nacl from 'tweetnacl';
import { io } from 'socket.io-client';
import { repoRoot } from '../src/paths.ts';
import type { BenchStreamer } from './support.ts';

export interface LiveStreamer extends BenchStreamer {
  secretKey: string;
  address: string;
  tier: string;
  /** When its token was issued (ms): tokens last a day, older ones are renewed. */
  signedInAt: number;
}

/** Client address of the i-th simulated client (10.0.0.0/8, one per streamer). */
export const clientAddress = (i: number) => `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`;

export class Api {
  constructor(readonly url: string) {}

  async call<T = Record<string, unknown>>(
    method: string,
    path: string,
    options: { token?: string; address: string; body?: unknown; query?: Record<string, string> },
  ): Promise<T> {
    const query = options.query ? `?${new URLSearchParams(options.query)}` : '';
    for (let attempt = 0; ; attempt++) {
      let res: Response;
      try {
        res = await fetch(`${this.url}/api/v1${path}${query}`, {
          method,
          headers: {
            'Content-Type': 'application/json',
            'X-Forwarded-For': options.address,
            ...(options.token ? { Authorization: `Bearer ${options.token}` } : {}),
          },
          body: options.body === undefined ? undefined : JSON.stringify(options.body),
        });
      } catch (err) {
        // A kept-alive connection the server closed meanwhile (its keep-alive timeout): the request did not
        // reach it; sent again on a new connection.
        if (attempt < 3) continue;
        throw err;
      }
      const text = await res.text();
      if (res.ok) return (text ? JSON.parse(text) : {}) as T;
      // The product under load may answer 503 (database busy); a few tries before giving up.
      if (res.status >= 500 && attempt < 3) {
        await new Promise((r) => setTimeout(r, 1000 * (attempt + 1)));
        continue;
      }
      throw new Error(`${method} ${path}: ${res.status} ${text.slice(0, 200)}`);
    }
  }

  async signIn(keypair: Keypair, address: string): Promise<string> {
    const wallet = keypair.publicKey.toBase58();
    const { nonce, message } = await this.call<{ nonce: string; message: string }>('GET', '/nonce', {
      address,
      query: { publicKey: wallet },
    });
    const signedMessage = Array.from(
      nacl.sign.detached(new TextEncoder().encode(message), keypair.secretKey),
    );
    const { token } = await this.call<{ token: string }>('POST', '/authenticate', {
      address,
      body: { publicKey: wallet, signedMessage, nonce },
    });
    return token;
  }
}

interface PrepareOptions {
  api: Api;
  dataDir: string;
  /** The product's data directory and database port (the admin CLI works on its database). */
  productEnv: NodeJS.ProcessEnv;
  count: number;
  concurrency: number;
  tier: string;
  log(line: string): void;
}

/** The streamers prepared so far (file order), their tokens renewed when older than 20 hours. */
function loadStreamers(file: string): LiveStreamer[] {
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as LiveStreamer);
}

/** An admin of the product: a wallet promoted with `pnpm admin promote`, signed in. */
async function admin(options: PrepareOptions): Promise<{ token: string }> {
  const file = join(options.dataDir, 'admin.json');
  let keypair: Keypair;
  if (existsSync(file)) {
    keypair = Keypair.fromSecretKey(bs58.decode(JSON.parse(readFileSync(file, 'utf8')).secretKey));
  } else {
    keypair = Keypair.generate();
    execFileSync('pnpm', ['--silent', 'admin', 'promote', keypair.publicKey.toBase58()], {
      cwd: repoRoot,
      env: options.productEnv,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    writeFileSync(file, JSON.stringify({ secretKey: bs58.encode(keypair.secretKey) }), { mode: 0o600 });
  }
  return { token: await options.api.signIn(keypair, '10.255.0.1') };
}

/** Reports the activation on a socket of the streamer's own, as the web app does after signing it. */
function reportActivation(api: Api, s: LiveStreamer, signature: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const socket = io(api.url, {
      transports: ['websocket'],
      auth: { wallet: s.wallet, authToken: s.token },
      extraHeaders: { 'X-Forwarded-For': s.address },
      reconnection: false,
      timeout: 60_000,
    });
    const done = (err?: Error) => {
      socket.close();
      if (err) reject(err);
      else resolve();
    };
    socket.once('connect_error', (e) => done(new Error(`socket: ${e.message}`)));
    socket.once('connect', () => socket.emit('activate-tier', { signature, tier: s.tier }));
    socket.once('tier-activated', () => done());
    socket.once('tier-error', (p: { message?: string }) => done(new Error(`tier-error: ${p?.message}`)));
    socket.once('error', (p: { message?: string }) => done(new Error(`error: ${p?.message}`)));
  });
}

/** Makes (or renews the tokens of) `count` live-ready streamers; returns them with the time taken per step. */
export async function prepareStreamers(options: PrepareOptions): Promise<LiveStreamer[]> {
  const { api, count, log } = options;
  mkdirSync(options.dataDir, { recursive: true });
  const file = join(options.dataDir, 'streamers.jsonl');
  const have = loadStreamers(file);
  const stale = have.filter((s) => Date.now() - s.signedInAt > 20 * 3600_000);
  if (stale.length) {
    log(`  renewing the sign-in of ${stale.length} prepared streamers (tokens older than 20 h)`);
    await pool(stale, options.concurrency, async (s) => {
      s.token = await api.signIn(Keypair.fromSecretKey(bs58.decode(s.secretKey)), s.address);
      s.signedInAt = Date.now();
    });
    writeFileSync(file, `${have.map((s) => JSON.stringify(s)).join('\n')}\n`);
  }
  const missing = count - have.length;
  if (missing <= 0) return have.slice(0, count);

  const { rpcUrl } = await api.call<{ rpcUrl: string }>('GET', '/client-config', { address: '10.255.0.2' });
  const connection = new Connection(rpcUrl, 'confirmed');
  const program = miningProgram(connection);
  const deposit = (await readConfig(program))?.tiers.find((t) => t.name === options.tier)?.deposit;
  if (deposit === undefined) throw new Error(`no ${options.tier} in the program's config`);
  const adminToken = (await admin(options)).token;
  log(
    `  preparing ${missing} streamers (${have.length} prepared before) through ${api.url}, chain ${rpcUrl}, ${options.concurrency} at a time`,
  );
  const steps = { signIn: 0, register: 0, grant: 0, faucet: 0, activate: 0, report: 0, demo: 0 };
  const timed = async <T>(step: keyof typeof steps, work: () => Promise<T>): Promise<T> => {
    const t0 = performance.now();
    try {
      return await work();
    } finally {
      steps[step] += performance.now() - t0;
    }
  };
  const t0 = Date.now();
  let made = 0;
  let failed = 0;
  const failures: Record<string, number> = {};
  const indexes = Array.from({ length: missing }, (_v, j) => have.length + j);
  let lastMade = 0;
  let lastAt = t0;
  const progress = setInterval(() => {
    const now = Date.now();
    const rate = (made - lastMade) / ((now - lastAt) / 1000);
    [lastMade, lastAt] = [made, now];
    log(
      `    ${made} prepared, ${failed} failed attempts in ${((now - t0) / 1000).toFixed(0)} s (${(made / ((now - t0) / 1000)).toFixed(1)}/s, last 30 s ${rate.toFixed(1)}/s)`,
    );
  }, 30_000);
  /** One streamer: what the chain needs and what the API needs side by side, as they do not wait on each other. */
  const makeOne = async (i: number): Promise<LiveStreamer> => {
    const keypair = Keypair.generate();
    const wallet = keypair.publicKey.toBase58();
    const address = clientAddress(i);
    const username = `live_${i}_${wallet.slice(0, 6).toLowerCase()}`;
    // Funded by the dev faucet, then the tier activated by a transaction the streamer signs.
    const onChain = async () => {
      await timed('faucet', () =>
        api.call('POST', '/dev/faucet', {
          address,
          body: { wallet, sol: 1, strm: Math.ceil(Number(deposit) / 1e6) },
        }),
      );
      return timed('activate', async () =>
        sendAndConfirmTransaction(
          connection,
          new Transaction().add(
            ...(await activateTierInstructions(program, keypair.publicKey, options.tier, deposit)),
          ),
          [keypair],
          { commitment: 'confirmed' },
        ),
      );
    };
    // Signed in, registered for the beta and granted access by the admin.
    const withApi = async () => {
      const token = await timed('signIn', () => api.signIn(keypair, address));
      await timed('register', () =>
        api.call('POST', '/registrations', {
          token,
          address,
          body: {
            wallet,
            name: `Live bench ${i}`,
            email: `live${i}@bench.invalid`,
            platform: 'twitch',
            platform_username: username,
            streaming_frequency: 'Daily',
            follower_count: 100,
            content_type: 'Gaming',
            project_interest: 'Load test of the live path',
          },
        }),
      );
      await timed('grant', () =>
        api.call('PUT', `/admin/beta-access/${wallet}`, {
          token: adminToken,
          // One admin client address per 500 grants (the REST limit is per address).
          address: `10.254.${(i / 500) | 0}.1`,
        }),
      );
      return token;
    };
    const [signature, token] = await both(onChain(), withApi());
    const s: LiveStreamer = {
      wallet,
      secretKey: bs58.encode(keypair.secretKey),
      token,
      signedInAt: Date.now(),
      username,
      address,
      tier: options.tier,
    };
    // The activation reported on the streamer's socket (it needs the access granted), the demo channel linked.
    await both(
      timed('report', () => reportActivation(api, s, signature)),
      timed('demo', () =>
        api.call('POST', '/dev/demo/account', { token, address, body: { username: s.username } }),
      ),
    );
    return s;
  };
  try {
    await pool(indexes, options.concurrency, async (i) => {
      // A streamer that failed (a timeout of the loaded machine) is made again with a new wallet, twice at most.
      for (let attempt = 1; ; attempt++) {
        try {
          const s = await makeOne(i);
          appendFileSync(file, `${JSON.stringify(s)}\n`);
          have.push(s);
          made++;
          return;
        } catch (err) {
          failed++;
          const key = (err as Error).message.slice(0, 120);
          failures[key] = (failures[key] ?? 0) + 1;
          if (attempt === 3) return;
        }
      }
    });
  } finally {
    clearInterval(progress);
  }
  const seconds = (Date.now() - t0) / 1000;
  log(
    `  prepared ${made} in ${seconds.toFixed(0)} s (${(made / seconds).toFixed(1)} streamers/s), ${failed} failed attempts; time per streamer by step (ms, mean; the chain's and the API's steps run side by side): ${Object.entries(
      steps,
    )
      .map(([k, v]) => `${k} ${(v / Math.max(1, made + failed)).toFixed(0)}`)
      .join(', ')}`,
  );
  if (failed) log(`  failures: ${JSON.stringify(failures)}`);
  return have.slice(0, count);
}

/** Both results; when one fails, after the other has ended too (nothing left running), its error. */
async function both<A, B>(a: Promise<A>, b: Promise<B>): Promise<[A, B]> {
  const [ra, rb] = await Promise.allSettled([a, b]);
  if (ra.status === 'rejected') throw ra.reason;
  if (rb.status === 'rejected') throw rb.reason;
  return [ra.value, rb.value];
}

/** Runs `work` on every item, at most `concurrency` at once. */
export async function pool<T>(items: T[], concurrency: number, work: (item: T) => Promise<void>) {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(concurrency, items.length) }, async () => {
      while (next < items.length) await work(items[next++]!);
    }),
  );
}
