// The client side of `pnpm test:compose` (scripts/compose/test.sh): what a browser and an operator do against
// the stack through its published ports, one check per command. Run from apps/api:
//   node --import tsx test/compose/client.ts <command> [args…]
// Each command prints what it saw and exits non-zero on the first thing that is not as it should be.
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { Connection, Keypair, sendAndConfirmTransaction, Transaction } from '@solana/web3.js';
import { activateTierInstructions, miningProgram, readConfig } from '@strm/mining-client';
import { io, type Socket } from 'socket.io-client';
import nacl from 'tweetnacl';

type Json = Record<string, unknown>;

function fail(message: string): never {
  console.error(`FAIL: ${message}`);
  process.exit(1);
}

function check(ok: unknown, message: string): void {
  if (!ok) fail(message);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function json(res: Response): Promise<Json> {
  const text = await res.text();
  try {
    return JSON.parse(text) as Json;
  } catch {
    fail(`${res.url}: ${res.status}, not JSON: ${text.slice(0, 200)}`);
  }
}

async function api(base: string, method: string, path: string, token?: string, body?: unknown) {
  const res = await fetch(`${base}/api/v1${path}`, {
    method,
    headers: {
      ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
      ...(token ? { Authorization: `Bearer ${token}` } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(15_000),
  });
  return { status: res.status, body: await json(res) };
}

interface SignedIn {
  keypair: Keypair;
  wallet: string;
  token: string;
}

/** The sign-in flow a wallet goes through: a nonce and its message, signed (ed25519), exchanged for a token. */
async function signIn(base: string, keypair = Keypair.generate()): Promise<SignedIn> {
  const wallet = keypair.publicKey.toBase58();
  const nonce = await api(base, 'GET', `/nonce?publicKey=${wallet}`);
  check(nonce.status === 200, `GET /nonce: ${nonce.status} ${JSON.stringify(nonce.body)}`);
  const message = String(nonce.body.message);
  const signedMessage = Array.from(nacl.sign.detached(new TextEncoder().encode(message), keypair.secretKey));
  const auth = await api(base, 'POST', '/authenticate', undefined, {
    publicKey: wallet,
    signedMessage,
    nonce: nonce.body.nonce,
  });
  check(auth.status === 200, `POST /authenticate: ${auth.status} ${JSON.stringify(auth.body)}`);
  const token = String(auth.body.token);
  const beta = await api(base, 'GET', '/beta-access', token);
  check(beta.status === 200, `GET /beta-access with the token: ${beta.status} ${JSON.stringify(beta.body)}`);
  return { keypair, wallet, token };
}

/** The admin of ADMIN_WALLETS (the keypair at STRM_TEST_ADMIN_KEYPAIR), signed in once per base URL. */
const admins = new Map<string, SignedIn>();
async function admin(base: string): Promise<SignedIn> {
  const file = process.env.STRM_TEST_ADMIN_KEYPAIR;
  check(file, 'STRM_TEST_ADMIN_KEYPAIR is not set');
  if (!admins.has(base)) {
    const secret = Uint8Array.from(JSON.parse(readFileSync(file!, 'utf8')) as number[]);
    admins.set(base, await signIn(base, Keypair.fromSecretKey(secret)));
  }
  return admins.get(base)!;
}

/**
 * A new wallet signed in, with beta access granted by the admin (PUT /admin/beta-access/:wallet, as an
 * operator's admin does): the product's signed-in endpoints answer it.
 */
async function user(base: string): Promise<SignedIn> {
  const s = await signIn(base);
  const granted = await api(base, 'PUT', `/admin/beta-access/${s.wallet}`, (await admin(base)).token);
  check(granted.status === 200, `PUT /admin/beta-access: ${granted.status} ${JSON.stringify(granted.body)}`);
  const stats = await api(base, 'GET', '/streamer/mining-stats', s.token);
  check(
    stats.status === 200,
    `GET /streamer/mining-stats with access: ${stats.status} ${JSON.stringify(stats.body)}`,
  );
  return s;
}

function socketOf(base: string, s: SignedIn): Socket {
  // As the web app (apps/web/src/lib/socket.ts): WebSocket only, reconnecting by itself.
  return io(base, {
    transports: ['websocket'],
    auth: { wallet: s.wallet, authToken: s.token },
    reconnectionDelay: 500,
    reconnectionDelayMax: 1000,
  });
}

function connected(socket: Socket, timeoutMs = 15_000): Promise<void> {
  if (socket.connected) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('socket did not connect')), timeoutMs);
    socket.once('connect', () => {
      clearTimeout(timer);
      resolve();
    });
  });
}

/** An event and the first of `answers` that comes back. */
function request(socket: Socket, event: string, payload: unknown, answers: string[], timeoutMs = 30_000) {
  return new Promise<[string, Json]>((resolve, reject) => {
    const handlers = new Map<string, (p: Json) => void>();
    const done = () => {
      clearTimeout(timer);
      for (const [e, f] of handlers) socket.off(e, f);
    };
    const timer = setTimeout(() => {
      done();
      reject(new Error(`no ${answers.join('/')} after ${event}`));
    }, timeoutMs);
    for (const a of answers) {
      const h = (p: Json) => {
        done();
        resolve([a, p]);
      };
      handlers.set(a, h);
      socket.on(a, h);
    }
    socket.emit(event, payload);
  });
}

/** The socket answers its wallet's requests (an activation that is not one is refused with tier-error). */
async function socketAnswers(socket: Socket): Promise<void> {
  const [event] = await request(socket, 'activate-tier', { signature: '1'.repeat(64), tier: 'Tier 1' }, [
    'tier-error',
    'tier-activated',
    'error',
  ]);
  check(event === 'tier-error' || event === 'error', `activate-tier answered ${event}`);
}

const commands: Record<string, (...args: string[]) => Promise<void>> = {
  /** Waits (up to 60 s) until GET /api/v1/health/ready answers 200 at `base` (a load balancer's first checks). */
  async ready(base) {
    const deadline = Date.now() + 60_000;
    for (;;) {
      const status = await fetch(`${base}/api/v1/health/ready`).then(
        (r) => r.status,
        () => 0,
      );
      if (status === 200) return;
      if (Date.now() > deadline) fail(`${base}/api/v1/health/ready: ${status} after 60 s`);
      await sleep(500);
    }
  },

  /** A new keypair (Solana CLI JSON) into `file`; prints its address. */
  async keygen(file) {
    const keypair = Keypair.generate();
    writeFileSync(file, JSON.stringify(Array.from(keypair.secretKey)), { mode: 0o600 });
    console.log(keypair.publicKey.toBase58());
  },

  /** The production stack: readiness, sign-in, the web app's first page and its script, /metrics. */
  async production(base, metricsToken) {
    const ready = await fetch(`${base}/api/v1/health/ready`);
    const readyBody = await json(ready);
    check(
      ready.status === 200 && readyBody.status === 'ready',
      `ready: ${ready.status} ${JSON.stringify(readyBody)}`,
    );
    console.log(`  /api/v1/health/ready: ${ready.status} ${JSON.stringify(readyBody)}`);
    const health = await json(await fetch(`${base}/api/v1/health`));
    console.log(`  /api/v1/health: ${JSON.stringify(health)}`);

    const s = await user(base);
    console.log(
      `  sign-in: ${s.wallet} signed its sign-in message and has a session token; beta access granted by the admin, GET /streamer/mining-stats: 200`,
    );

    const page = await fetch(`${base}/`);
    const html = await page.text();
    check(page.status === 200 && /<div id="root">/.test(html), `GET /: ${page.status} ${html.slice(0, 200)}`);
    const script = /<script[^>]+src="([^"]+)"/.exec(html)?.[1];
    check(script, 'the first page names no script');
    const asset = await fetch(new URL(script!, base));
    check(asset.status === 200 && (await asset.text()).length > 1000, `GET ${script}: ${asset.status}`);
    console.log(`  web app: GET / 200 (${html.length} bytes), its script ${script} 200`);

    const refused = await fetch(`${base}/metrics`);
    check(refused.status === 401 || refused.status === 403, `/metrics without the token: ${refused.status}`);
    const metrics = await fetch(`${base}/metrics`, { headers: { Authorization: `Bearer ${metricsToken}` } });
    const text = await metrics.text();
    check(
      metrics.status === 200 && text.includes('strm_http_request_duration_seconds'),
      `/metrics with the token: ${metrics.status} ${text.slice(0, 200)}`,
    );
    console.log(
      `  /metrics: ${refused.status} without the token, 200 with it (${text.split('\n').length} lines)`,
    );
  },

  /** Signs in and keeps what it needs to check after a restart of the stack (`persisted`). */
  async remember(base, file) {
    const s = await user(base);
    const zone = await api(base, 'PUT', '/streamer/timezone', s.token, { timezone: 'Europe/Paris' });
    check(zone.status === 200, `PUT /streamer/timezone: ${zone.status} ${JSON.stringify(zone.body)}`);
    writeFileSync(file, JSON.stringify({ wallet: s.wallet, token: s.token }));
    console.log(`  ${s.wallet}: signed in, timezone Europe/Paris saved`);
  },

  async persisted(base, file) {
    const { wallet, token } = JSON.parse(readFileSync(file, 'utf8')) as { wallet: string; token: string };
    const stats = await api(base, 'GET', '/streamer/mining-stats', token);
    check(stats.status === 200, `GET /streamer/mining-stats after down/up: ${stats.status}`);
    check(stats.body.timezone === 'Europe/Paris', `timezone after down/up: ${JSON.stringify(stats.body)}`);
    console.log(`  ${wallet}: the same session token works and the timezone is still Europe/Paris`);
  },

  /**
   * Several instances behind the load balancer: signed-in sockets (spread over the instances by round robin)
   * and a client calling the API every 200 ms, while `container` (one instance) restarts. Every socket must be
   * connected and answering again afterwards, with the same session, and the load balancer must have kept
   * answering.
   */
  async scale(base, container, instancesText) {
    const instances = Number(instancesText);
    const s = await user(base);
    const sockets = Array.from({ length: 6 }, () => socketOf(base, s));
    await Promise.all(sockets.map((socket) => connected(socket)));
    for (const socket of sockets) await socketAnswers(socket);
    const disconnects = sockets.map(() => 0);
    const seen: string[] = [];
    sockets.forEach((socket, i) => {
      socket.on('disconnect', (reason) => {
        disconnects[i]! += 1;
        seen.push(`${i}: disconnect (${reason})`);
      });
      socket.on('connect_error', (err: Error & { data?: unknown }) =>
        seen.push(
          `${i}: connect_error ${err.message} ${JSON.stringify(err.data ?? null)} active=${socket.active}`,
        ),
      );
      socket.io.on('reconnect', () => seen.push(`${i}: reconnected`));
    });
    const report = () => console.log(`  socket events:\n    ${seen.slice(0, 40).join('\n    ')}`);
    console.log(
      `  ${sockets.length} sockets of ${s.wallet} connected through the load balancer (${instances} instances)`,
    );

    let calls = 0;
    let failures = 0;
    let polling = true;
    const poll = (async () => {
      while (polling) {
        calls += 1;
        try {
          const r = await api(base, 'GET', '/streamer/mining-stats', s.token);
          if (r.status !== 200) failures += 1;
        } catch {
          failures += 1;
        }
        await sleep(200);
      }
    })();
    const started = Date.now();
    execFileSync('docker', ['restart', container], { stdio: ['ignore', 'ignore', 'inherit'] });
    console.log(
      `  docker restart ${container.slice(0, 12)}: ${((Date.now() - started) / 1000).toFixed(1)} s`,
    );
    // The restarted instance is back in rotation once healthy; every socket reconnected meanwhile.
    const deadline = Date.now() + 90_000;
    for (;;) {
      const state = execFileSync('docker', ['inspect', '-f', '{{.State.Health.Status}}', container], {
        encoding: 'utf8',
      }).trim();
      if (state === 'healthy') break;
      if (Date.now() > deadline) fail(`the restarted instance is ${state} after 90 s`);
      await sleep(1000);
    }
    try {
      await Promise.all(sockets.map((socket) => connected(socket, 30_000)));
      for (const socket of sockets) await socketAnswers(socket);
    } finally {
      report();
    }
    polling = false;
    await poll;
    const moved = disconnects.filter((n) => n > 0).length;
    console.log(
      `  after the restart: all ${sockets.length} sockets connected and answering (${moved} were on the restarted instance and reconnected); ` +
        `${calls} API calls through the load balancer meanwhile, ${failures} failed`,
    );
    check(moved > 0, 'no socket was on the restarted instance: the load balancer did not spread them');
    check(failures <= Math.ceil(calls * 0.05), `${failures} of ${calls} calls failed during the restart`);
    const after = await api(base, 'GET', '/streamer/mining-stats', s.token);
    check(after.status === 200, `the session token after the restart: ${after.status}`);
    for (const socket of sockets) socket.close();
  },

  /**
   * The local-chain profile end to end, as a streamer in the browser: sign in, tokens from the faucet, Tier 1
   * activated on the chain, a demo platform account on air, mining with updates, then stopped with its amount.
   */
  async mine(base, rpcUrl) {
    const ready = await json(await fetch(`${base}/api/v1/health/ready`));
    check(ready.status === 'ready', `ready: ${JSON.stringify(ready)}`);
    const s = await user(base);
    const faucet = await api(base, 'POST', '/dev/faucet', undefined, {
      wallet: s.wallet,
      sol: 2,
      strm: 20_000,
    });
    check(faucet.status === 200, `POST /dev/faucet: ${faucet.status} ${JSON.stringify(faucet.body)}`);
    console.log(
      `  ${s.wallet}: signed in, ${faucet.body.sol} SOL and ${faucet.body.strm} STRM from the faucet`,
    );

    const connection = new Connection(rpcUrl, 'confirmed');
    const program = miningProgram(connection);
    const deposit = (await readConfig(program))?.tiers.find((t) => t.name === 'Tier 1')?.deposit;
    check(deposit !== undefined, 'no Tier 1 in the program config');
    const signature = await sendAndConfirmTransaction(
      connection,
      new Transaction().add(
        ...(await activateTierInstructions(program, s.keypair.publicKey, 'Tier 1', deposit!)),
      ),
      [s.keypair],
      { commitment: 'confirmed' },
    );
    console.log(
      `  Tier 1 activated on the chain (deposit ${deposit} base units): ${signature.slice(0, 16)}…`,
    );

    const username = `compose_${s.wallet.slice(0, 8).toLowerCase()}`;
    const account = await api(base, 'POST', '/dev/demo/account', s.token, { username });
    check(
      account.status === 200,
      `POST /dev/demo/account: ${account.status} ${JSON.stringify(account.body)}`,
    );
    const live = await api(base, 'PUT', '/dev/demo/live', s.token, { live: true, viewers: 25 });
    check(live.status === 200, `PUT /dev/demo/live: ${live.status} ${JSON.stringify(live.body)}`);

    const socket = socketOf(base, s);
    await connected(socket);
    const [activated, a] = await request(socket, 'activate-tier', { signature, tier: 'Tier 1' }, [
      'tier-activated',
      'tier-error',
    ]);
    check(activated === 'tier-activated', `activate-tier: ${activated} ${JSON.stringify(a)}`);
    const updates: Json[] = [];
    socket.on('mining-update', (p: Json) => updates.push(p));
    const [started, p] = await request(
      socket,
      'start-stream',
      { platform: 'demo', wallet: s.wallet, username, tier: 'Tier 1' },
      ['stream-started', 'room-error', 'error'],
    );
    check(started === 'stream-started', `start-stream: ${started} ${JSON.stringify(p)}`);
    console.log(`  mining on the demo platform as ${username}`);
    const deadline = Date.now() + 60_000;
    while (updates.length < 2 && Date.now() < deadline) await sleep(500);
    check(updates.length >= 2, `${updates.length} mining-update events in 60 s`);
    console.log(`  ${updates.length} mining-update events; the last: ${JSON.stringify(updates.at(-1))}`);
    const [, stopped] = await request(socket, 'stop-stream', { platform: 'demo', wallet: s.wallet }, [
      'stream-stopped',
    ]);
    console.log(`  stopped: ${JSON.stringify(stopped)}`);
    const stats = await api(base, 'GET', '/streamer/mining-stats', s.token);
    console.log(`  mining stats: ${JSON.stringify(stats.body)}`);
    socket.close();
  },
};

const [name, ...args] = process.argv.slice(2);
const command = name ? commands[name] : undefined;
if (!command) fail(`usage: client.ts ${Object.keys(commands).join('|')} …`);
try {
  await command(...args);
} catch (err) {
  fail((err as Error).stack ?? String(err));
}
process.exit(0);
