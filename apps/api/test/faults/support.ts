// What the fault suite runs and measures with: real processes (the API as `pnpm start` runs it, a private
// PostgreSQL cluster it may stop, a Redis server of its own, the local chain) and streamers as browsers are
// (a wallet, its socket, the demo platform), each counting the updates it receives.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  type Connection,
  Keypair,
  SystemProgram,
  sendAndConfirmTransaction,
  Transaction,
  type TransactionInstruction,
} from '@solana/web3.js';
import { type ChainInfo, fundWallet } from '@strm/local-chain';
import { activateTierInstructions, miningProgram, readConfig } from '@strm/mining-client';
import { freePort, startProcess } from '@strm/testing';
import pg from 'pg';
import { io, type Socket } from 'socket.io-client';
import { systemClock } from '../../src/clock.ts';
import { loadConfig } from '../../src/config.ts';
import { issueAuthToken } from '../../src/services/auth/tokens.ts';

const apiDir = fileURLToPath(new URL('../..', import.meta.url));
export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function waitUntil(probe: () => Promise<boolean> | boolean, timeoutMs: number, what: string) {
  const deadline = Date.now() + timeoutMs;
  while (!(await probe())) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await sleep(50);
  }
}

// ---- the API ---------------------------------------------------------------------------------------

export interface ApiProcess {
  label: string;
  url: string;
  port: number;
  env: Record<string, string>;
  child: ChildProcess;
  /** Exits the suite did not cause. */
  unexpectedExits: number;
  /** Lines logged as an unhandled promise rejection. */
  unhandled(): number;
  output(): string;
  kill(signal: NodeJS.Signals): void;
  stop(): Promise<void>;
  alive(): boolean;
}

export async function startApi(label: string, env: Record<string, string>): Promise<ApiProcess> {
  const port = Number(env.PORT ?? (await freePort()));
  const fullEnv = { ...env, PORT: String(port) };
  const started = await startProcess(process.execPath, ['--import', 'tsx', 'src/main.ts'], /ready at http/, {
    cwd: apiDir,
    env: { ...process.env, NODE_ENV: 'development', LOG_LEVEL: 'warn', ...fullEnv },
    group: true,
    label,
  });
  const { child } = started;
  let expected = false;
  let exited = false;
  const api: ApiProcess = {
    label,
    url: `http://127.0.0.1:${port}`,
    port,
    env: fullEnv,
    child,
    unexpectedExits: 0,
    unhandled: () =>
      started
        .output()
        .split('\n')
        .filter((l) => l.includes('unhandled promise rejection')).length,
    output: started.output,
    kill(signal) {
      expected = true;
      child.kill(signal);
    },
    async stop() {
      if (exited) return;
      expected = true;
      await started.stop(15_000);
    },
    alive: () => !exited,
  };
  void started.exited.then(() => {
    exited = true;
    if (!expected) api.unexpectedExits++;
  });
  return api;
}

interface HealthBody {
  status?: string;
  database?: { state?: string };
  chain?: { state?: string };
}

/** GET /health: its answer and how long it took. */
export async function health(api: ApiProcess) {
  const started = performance.now();
  try {
    const res = await fetch(`${api.url}/api/v1/health`, { signal: AbortSignal.timeout(5000) });
    return {
      ms: performance.now() - started,
      body: (await res.json()) as HealthBody,
    };
  } catch {
    return { ms: performance.now() - started, body: undefined };
  }
}

/** The API's child processes by command name (the embedded PostgreSQL's postmaster, the local chain). */
export function childPid(api: ApiProcess, command: 'postgres' | 'strm-local-chai'): number {
  const out = execFileSync('ps', ['--ppid', String(api.child.pid), '-o', 'pid=,comm=']).toString();
  const line = out
    .split('\n')
    .map((l) => l.trim().split(/\s+/))
    .find(([, comm]) => comm === command);
  if (!line) throw new Error(`${api.label} has no ${command} child`);
  return Number(line[0]);
}

// ---- a private PostgreSQL cluster and Redis ------------------------------------------------------------

const PG_BIN = [
  '/usr/lib/postgresql/15/bin',
  '/usr/lib/postgresql/16/bin',
  '/usr/lib/postgresql/17/bin',
].find((d) => existsSync(join(d, 'pg_ctl')));

export interface PrivatePostgres {
  url(database: string): string;
  createDatabase(name: string): Promise<string>;
  stop(): void;
  start(): void;
  destroy(): Promise<void>;
}

/** A cluster of its own (as the `postgres` user when root), so stopping it disturbs nobody else's. */
export async function privatePostgres(): Promise<PrivatePostgres> {
  if (!PG_BIN) throw new Error('no PostgreSQL server binaries under /usr/lib/postgresql');
  const dir = await mkdtemp(join(tmpdir(), 'strm-faults-pg-'));
  await chmod(dir, 0o777);
  const port = await freePort();
  const asPostgres = (args: string[]) =>
    process.getuid?.() === 0
      ? execFileSync('su', ['postgres', '-s', '/bin/sh', '-c', args.map((a) => `'${a}'`).join(' ')], {
          stdio: 'pipe',
        })
      : execFileSync(args[0]!, args.slice(1), { stdio: 'pipe' });
  const data = join(dir, 'data');
  asPostgres([join(PG_BIN, 'initdb'), '-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync']);
  const ctl = (action: 'start' | 'stop') =>
    asPostgres(
      action === 'start'
        ? [
            join(PG_BIN, 'pg_ctl'),
            '-D',
            data,
            '-w',
            '-l',
            join(dir, 'log'),
            '-o',
            `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200`,
            'start',
          ]
        : [join(PG_BIN, 'pg_ctl'), '-D', data, '-w', '-m', 'fast', 'stop'],
    );
  ctl('start');
  const url = (database: string) => `postgresql://postgres@127.0.0.1:${port}/${database}`;
  return {
    url,
    async createDatabase(name) {
      const client = new pg.Client({ connectionString: url('postgres') });
      await client.connect();
      await client.query(`CREATE DATABASE "${name}"`);
      await client.end();
      return url(name);
    },
    stop: () => ctl('stop'),
    start: () => ctl('start'),
    async destroy() {
      try {
        ctl('stop');
      } catch {
        // already stopped
      }
      await rm(dir, { recursive: true, force: true });
    },
  };
}

export interface RedisServer {
  url: string;
  stop(): Promise<void>;
  start(): Promise<void>;
}

export async function redisServer(): Promise<RedisServer> {
  const port = await freePort();
  let child: ChildProcess | undefined;
  const start = async () => {
    child = spawn(
      'redis-server',
      ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
      {
        stdio: 'ignore',
      },
    );
    await waitUntil(
      () =>
        new Promise<boolean>((resolve) => {
          const c = spawn('redis-cli', ['-p', String(port), 'ping'], { stdio: 'ignore' });
          c.once('exit', (code) => resolve(code === 0));
        }),
      10_000,
      'redis-server',
    );
  };
  await start();
  return {
    url: `redis://127.0.0.1:${port}`,
    start,
    async stop() {
      const c = child;
      if (!c || c.exitCode !== null) return;
      const gone = new Promise((r) => c.once('exit', r));
      c.kill('SIGKILL');
      await gone;
    },
  };
}

// ---- streamers -------------------------------------------------------------------------------------

export interface ChainAccess {
  connection: Connection;
  info: ChainInfo;
}

export function chainInfoAt(dir: string): ChainInfo {
  return JSON.parse(readFileSync(join(dir, 'chain.json'), 'utf8')) as ChainInfo;
}

async function send(connection: Connection, signer: Keypair, instructions: TransactionInstruction[]) {
  return sendAndConfirmTransaction(connection, new Transaction().add(...instructions), [signer], {
    commitment: 'confirmed',
  });
}

/** A funded wallet with Tier 1 active on chain, and the activation's signature. */
export async function activatedWallet(localChain: ChainAccess) {
  const keypair = Keypair.generate();
  await fundWallet(localChain.connection, localChain.info, keypair.publicKey, { sol: 2, strm: 20_000 });
  const program = miningProgram(localChain.connection);
  const deposit = (await readConfig(program))?.tiers.find((t) => t.name === 'Tier 1')?.deposit ?? 0n;
  const signature = await send(
    localChain.connection,
    keypair,
    await activateTierInstructions(program, keypair.publicKey, 'Tier 1', deposit),
  );
  return { keypair, signature };
}

export function selfTransfer(localChain: ChainAccess, keypair: Keypair) {
  return send(localChain.connection, keypair, [
    SystemProgram.transfer({ fromPubkey: keypair.publicKey, toPubkey: keypair.publicKey, lamports: 0 }),
  ]);
}

type Payload = Record<string, unknown>;

/**
 * A streamer's browser: its socket reconnects (as the web app does, and as a load balancer would send it to
 * an instance still alive) to the first of `urls()` that answers.
 */
export class Streamer {
  readonly wallet: string;
  readonly username: string;
  socket: Socket | undefined;
  /** When each mining-update arrived (Date.now()). */
  readonly updates: number[] = [];
  readonly stops: Payload[] = [];
  readonly errors: string[] = [];
  private closed = false;
  private readonly token: string;

  constructor(
    readonly keypair: Keypair,
    readonly activation: string,
    jwtSecret: string,
    private readonly urls: () => string[],
  ) {
    this.wallet = keypair.publicKey.toBase58();
    this.username = `fault_${this.wallet.slice(0, 10).toLowerCase()}`;
    const config = loadConfig({ NODE_ENV: 'test', JWT_SECRET: jwtSecret, DATABASE_URL: 'postgres://x/y' });
    this.token = issueAuthToken(config, this.wallet, systemClock);
  }

  async rest(url: string, method: string, path: string, body?: unknown) {
    const res = await fetch(`${url}/api/v1${path}`, {
      method,
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${this.token}` },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
    return res.json();
  }

  /** Connects to the first answering URL; keeps reconnecting until close(). */
  async connect(): Promise<void> {
    for (;;) {
      for (const url of this.urls()) {
        const socket = io(url, {
          transports: ['websocket'],
          auth: { wallet: this.wallet, authToken: this.token },
          reconnection: false,
          forceNew: true,
        });
        const ok = await new Promise<boolean>((resolve) => {
          socket.once('connect', () => resolve(true));
          socket.once('connect_error', () => resolve(false));
          setTimeout(() => resolve(false), 3000);
        });
        if (!ok) {
          socket.close();
          continue;
        }
        this.socket = socket;
        socket.on('mining-update', () => this.updates.push(Date.now()));
        socket.on('stream-stopped', (p: Payload) => this.stops.push(p));
        socket.on('error', (p: Payload) => this.errors.push(String(p?.message)));
        socket.once('disconnect', () => {
          if (this.closed) return;
          // As the web app: try again after a second.
          setTimeout(() => void this.connect().catch(() => {}), 1000);
        });
        return;
      }
      if (this.closed) return;
      await sleep(500);
    }
  }

  request(
    event: string,
    payload: unknown,
    answers: string[],
    timeoutMs = 30_000,
  ): Promise<[string, Payload]> {
    const socket = this.socket!;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        for (const a of answers) socket.off(a, handlers.get(a));
        reject(new Error(`${this.wallet}: no ${answers.join('/')} after ${event}`));
      }, timeoutMs);
      const handlers = new Map<string, (p: Payload) => void>();
      for (const a of answers) {
        const h = (p: Payload) => {
          clearTimeout(timer);
          for (const [e, f] of handlers) socket.off(e, f);
          resolve([a, p]);
        };
        handlers.set(a, h);
        socket.on(a, h);
      }
      socket.emit(event, payload);
    });
  }

  /** Demo account, live (on each instance in `liveOn`), tier reported (once per API database). */
  async prepare(url: string, liveOn: string[] = [url]): Promise<void> {
    await this.rest(url, 'POST', '/dev/demo/account', { username: this.username });
    // The demo platform's live flag is each process's own.
    for (const at of liveOn) await this.rest(at, 'PUT', '/dev/demo/live', { live: true });
    const [event, p] = await this.request('activate-tier', { signature: this.activation, tier: 'Tier 1' }, [
      'tier-activated',
      'tier-error',
    ]);
    if (event !== 'tier-activated') throw new Error(`activate-tier refused: ${JSON.stringify(p)}`);
  }

  async start(): Promise<void> {
    const [event, p] = await this.request(
      'start-stream',
      { platform: 'demo', wallet: this.wallet, username: this.username, tier: 'Tier 1' },
      ['stream-started', 'room-error', 'error'],
    );
    if (event !== 'stream-started') throw new Error(`start-stream refused: ${JSON.stringify(p)}`);
  }

  async stop(): Promise<Payload> {
    const [, p] = await this.request('stop-stream', { platform: 'demo', wallet: this.wallet }, [
      'stream-stopped',
    ]);
    return p;
  }

  close(): void {
    this.closed = true;
    this.socket?.close();
  }
}

/** Runs `work` over `items`, `width` at a time. */
export async function inBatches<T, R>(
  items: T[],
  width: number,
  work: (item: T) => Promise<R>,
): Promise<R[]> {
  const results: R[] = [];
  for (let i = 0; i < items.length; i += width) {
    results.push(...(await Promise.all(items.slice(i, i + width).map(work))));
  }
  return results;
}
