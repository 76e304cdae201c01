// A real API server (Express + Socket.IO on a free port) over a fresh PostgreSQL database and the local
// chain, with a fake clock and the demo platform the tests toggle; socket.io-client as the browser would.
import { existsSync } from 'node:fs';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { getAssociatedTokenAddressSync } from '@solana/spl-token';
import {
  Keypair,
  type PublicKey,
  SystemProgram,
  sendAndConfirmTransaction,
  Transaction,
  type TransactionInstruction,
} from '@solana/web3.js';
import { binaryPath, fundWallet, type LocalChain, startLocalChain } from '@strm/local-chain';
import {
  activateTierInstructions,
  deactivateTierInstruction,
  miningProgram,
  readConfig,
  readStreamer,
} from '@strm/mining-client';
import type { ClientEventName, ServerEventName } from '@strm/shared';
import { freePortPair } from '@strm/testing';
import { io as connectSocket, type Socket } from 'socket.io-client';
import { afterAll, beforeAll } from 'vitest';
import { type App, createApp } from '../../src/app.ts';
import { systemClock } from '../../src/clock.ts';
import { createRpc } from '../../src/rpc/rpc.ts';
import { type Config, loadConfig } from '../../src/config.ts';
import { createPrisma, type PrismaClient } from '../../src/db/index.ts';
import { createLogger } from '../../src/logger.ts';
import type { PlatformAdapter } from '../../src/platforms/adapter.ts';
import { DemoPlatform } from '../../src/platforms/demo.ts';
import { issueAuthToken } from '../../src/services/auth/tokens.ts';
import { seedDefaultTiers } from '../../src/services/tiers/catalog.ts';
import { watchAccess } from '../../src/socket/access.ts';
import { watchMaintenance } from '../../src/socket/maintenance.ts';
import { createTestDatabase, fakeClock, grantAccess } from './test-app.ts';

export type FakeClock = ReturnType<typeof fakeClock>;
/** The real time, for a server that must run as shipped (its setters do nothing). */
export const wallClock: FakeClock = { now: () => new Date(), set: () => {}, advance: () => {} };

export interface TestChain {
  local: LocalChain;
  /** Its data directory (chain.json): LOCAL_CHAIN_DIR for API processes on this chain. */
  dataDir: string;
  stop(): Promise<void>;
}

/** `programSuite`: the file checks the mining program itself (STRM_TEST_CHAIN_PROGRAM picks which runs). */
export async function startTestChain(options: { programSuite?: boolean } = {}): Promise<TestChain> {
  const dataDir = await mkdtemp(join(tmpdir(), 'strm-api-engine-'));
  await chmod(dataDir, 0o755);
  // Another worktree's cargo may hold the shared target's lock: only build when there is no binary yet.
  const build = !existsSync(binaryPath());
  const rpcPort = await freePortPair();
  const local = await startLocalChain({ dataDir, rpcPort, reset: true, build, ...options });
  return {
    local,
    dataDir,
    async stop() {
      await local.stop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** A test file's local chain and engine server: started before its tests, handed to `use`, stopped after. */
export function useEngineServer(
  use: (chain: TestChain, server: EngineServer) => void,
  options: { programSuite?: boolean } = {},
): void {
  let chain: TestChain | undefined;
  let server: EngineServer | undefined;
  beforeAll(async () => {
    chain = await startTestChain(options);
    server = await startEngineServer(chain);
    use(chain, server);
  }, 180_000);
  afterAll(async () => {
    await server?.close();
    await server?.drop();
    await chain?.stop();
  });
}

export interface EngineServer {
  url: string;
  app: App;
  prisma: PrismaClient;
  clock: FakeClock;
  demo: DemoPlatform;
  databaseUrl: string;
  config: Config;
  /** Closes the server and its engine (the database stays until `drop`). */
  close(): Promise<void>;
  drop(): Promise<void>;
}

export const TEST_ENGINE_ENV = {
  MINING_TICK_MS: '10',
  SOCKET_GRACE_PERIOD_MS: '30000',
  MINING_UPDATE_INTERVAL_MS: '5000',
  MINING_CHECKPOINT_INTERVAL_MS: '60000',
  TIERS_REFRESH_MS: '60000',
  // Every client of a test connects from 127.0.0.1, and some open many tabs of one wallet.
  SOCKET_HANDSHAKES_PER_MINUTE: '100000',
  SOCKETS_PER_WALLET: '100',
  // 50 tabs of one wallet collecting at once (engine-rewards) are within it; access.test.ts sets its own.
  WALLET_EVENT_BURST: '100',
};

export async function startEngineServer(
  chain: TestChain,
  opts: {
    env?: Record<string, string>;
    clock?: FakeClock;
    databaseUrl?: string;
    port?: number;
    /** The demo platform (a test's subclass), and adapters replacing Twitch's or TikTok's. */
    demo?: DemoPlatform;
    platforms?: PlatformAdapter[];
    /** As in production: no chain.json, so the treasury is TREASURY_KEYPAIR_PATH's (env). */
    withoutLocalChainInfo?: boolean;
  } = {},
): Promise<EngineServer> {
  const db = opts.databaseUrl ? { url: opts.databaseUrl, drop: async () => {} } : await createTestDatabase();
  const config = loadConfig({
    NODE_ENV: 'test',
    DATABASE_URL: db.url,
    JWT_SECRET: 'engine-tests-secret-engine-tests-secret',
    DEMO_PLATFORM: 'on',
    ...TEST_ENGINE_ENV,
    ...opts.env,
  });
  const prisma = createPrisma(db.url);
  await seedDefaultTiers(prisma);
  const clock = opts.clock ?? fakeClock(new Date());
  const demo = opts.demo ?? new DemoPlatform();
  const app = createApp({
    config,
    prisma,
    rpc: createRpc(chain.local.rpcUrl, chain.local.wsUrl),
    clock,
    logger: createLogger(process.env.TEST_LOG_LEVEL ?? 'silent'),
    ...(opts.withoutLocalChainInfo ? {} : { localChainInfo: chain.local.info }),
    demoPlatform: demo,
    ...(opts.platforms ? { platforms: opts.platforms } : {}),
  });
  await app.services.start();
  const maintenance = await watchMaintenance(db.url, app.io, createLogger('silent'), (status) =>
    app.services.onMaintenance(status.is_maintenance),
  );
  const access = await watchAccess(db.url, app.io, app.services, createLogger('silent'));
  await new Promise<void>((resolve) => app.server.listen(opts.port ?? 0, '127.0.0.1', resolve));
  const { port } = app.server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    app,
    prisma,
    clock,
    demo,
    databaseUrl: db.url,
    config,
    async close() {
      await maintenance.stop();
      await access.stop();
      app.io.close();
      await new Promise((r) => app.server.close(r));
      await app.services.stop();
      await prisma.$disconnect();
    },
    drop: db.drop,
  };
}

// ---- clients ----------------------------------------------------------------------------------------

export type Client = Socket;

/** A socket of `wallet`, a beta user (given access first unless `access: false`). */
export async function connect(
  server: EngineServer,
  wallet: string,
  opts: { access?: boolean; authToken?: string } = {},
): Promise<Client> {
  if (opts.access !== false) await grantAccess(server.prisma, wallet);
  const socket = connectSocket(server.url, {
    transports: ['websocket'],
    auth: { wallet, authToken: opts.authToken ?? issueAuthToken(server.config, wallet, server.clock) },
    reconnection: false,
    forceNew: true,
  });
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', () => resolve());
    socket.once('connect_error', reject);
  });
  return socket;
}

/** The next `event` on the socket (rejects after `timeoutMs`). */
export function next<T = Record<string, unknown>>(
  socket: Client,
  event: ServerEventName,
  timeoutMs = 10_000,
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => {
      socket.off(event, onEvent);
      reject(new Error(`no ${event} within ${timeoutMs} ms`));
    }, timeoutMs);
    const onEvent = (payload: T) => {
      clearTimeout(timer);
      resolve(payload);
    };
    socket.once(event, onEvent);
  });
}

/** Emits and waits for the first of the answer events. */
export async function request(
  socket: Client,
  event: ClientEventName,
  payload: unknown,
  answers: ServerEventName[],
  timeoutMs = 15_000,
): Promise<{ event: ServerEventName; payload: Record<string, unknown> }> {
  const result = new Promise<{ event: ServerEventName; payload: Record<string, unknown> }>(
    (resolve, reject) => {
      const handlers = new Map<ServerEventName, (p: Record<string, unknown>) => void>();
      const cleanup = () => {
        clearTimeout(timer);
        for (const [e, h] of handlers) socket.off(e, h);
      };
      const timer = setTimeout(() => {
        cleanup();
        reject(new Error(`no ${answers.join('/')} after ${event} within ${timeoutMs} ms`));
      }, timeoutMs);
      for (const answer of answers) {
        const handler = (p: Record<string, unknown>) => {
          cleanup();
          resolve({ event: answer, payload: p });
        };
        handlers.set(answer, handler);
        socket.on(answer, handler);
      }
    },
  );
  socket.emit(event, payload);
  return result;
}

/** Records every event a socket receives (to assert what did and did not arrive). */
export function recorder(socket: Client) {
  const seen: Array<{ event: string; payload: unknown }> = [];
  socket.onAny((event: string, payload: unknown) => seen.push({ event, payload }));
  return seen;
}

export async function waitFor<T>(
  probe: () => Promise<T | undefined> | T | undefined,
  timeoutMs = 10_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 20));
  }
}

// ---- streamers on chain ------------------------------------------------------------------------------

export interface TestStreamer {
  keypair: Keypair;
  wallet: string;
  username: string;
  activation: string;
  activatedAt: Date;
}

async function send(
  chain: TestChain,
  signer: Keypair,
  instructions: TransactionInstruction[],
): Promise<string> {
  return sendAndConfirmTransaction(chain.local.connection, new Transaction().add(...instructions), [signer], {
    commitment: 'confirmed',
  });
}

/** A funded wallet with `tier` active on chain (reported to the server by activate-tier when `socket`). */
export async function activatedWallet(chain: TestChain, tier = 'Tier 1', keypair = Keypair.generate()) {
  await fundWallet(chain.local.connection, chain.local.info, keypair.publicKey, { sol: 2, strm: 20_000 });
  const program = miningProgram(chain.local.connection);
  // The deposit a client shows the user is the config's; activation fails if it changes before landing.
  const deposit = (await readConfig(program))?.tiers.find((t) => t.name === tier)?.deposit ?? 0n;
  const signature = await send(
    chain,
    keypair,
    await activateTierInstructions(program, keypair.publicKey, tier, deposit),
  );
  const record = await readStreamer(program, keypair.publicKey);
  return { keypair, signature, activatedAt: new Date((record?.activatedAt ?? 0) * 1000) };
}

export async function deactivate(chain: TestChain, keypair: Keypair): Promise<string> {
  const program = miningProgram(chain.local.connection);
  return send(chain, keypair, [await deactivateTierInstruction(program, keypair.publicKey)]);
}

/**
 * The empty self-transfer that proves a collect request (docs/product.md#collecting-rewards). Identical
 * transactions share a signature, so concurrent ones differ by `lamports` (still a transfer to itself).
 */
export async function selfTransfer(chain: TestChain, keypair: Keypair, lamports = 0): Promise<string> {
  return send(chain, keypair, [
    SystemProgram.transfer({ fromPubkey: keypair.publicKey, toPubkey: keypair.publicKey, lamports }),
  ]);
}

export async function tokenUnits(chain: TestChain, owner: PublicKey): Promise<bigint> {
  const ata = getAssociatedTokenAddressSync(
    new (await import('@solana/web3.js')).PublicKey(chain.local.info.mint),
    owner,
  );
  const info = await chain.local.connection.getTokenAccountBalance(ata, 'confirmed').catch(() => null);
  return BigInt(info?.value.amount ?? '0');
}

/** A verified demo account (what the verification flow of the platforms issue records). */
export async function verifiedDemoAccount(
  server: EngineServer,
  wallet: string,
  username: string,
  timezone = 'UTC',
) {
  await server.prisma.streamer.upsert({
    where: { wallet },
    create: { wallet, timezone },
    update: { timezone },
  });
  await server.prisma.platformAccount.create({
    data: { wallet, platform: 'demo', username, isVerified: true, verifiedAt: new Date() },
  });
}

/** Activated on chain, reported with activate-tier, a verified demo account, live on the demo platform. */
export async function readyStreamer(
  chain: TestChain,
  server: EngineServer,
  opts: { tier?: string; timezone?: string } = {},
): Promise<TestStreamer & { socket: Client }> {
  const { keypair, signature, activatedAt } = await activatedWallet(chain, opts.tier);
  const wallet = keypair.publicKey.toBase58();
  const username = `demo_${wallet.slice(0, 8).toLowerCase()}`;
  await verifiedDemoAccount(server, wallet, username, opts.timezone);
  const socket = await connect(server, wallet);
  const answer = await request(socket, 'activate-tier', { signature, tier: opts.tier ?? 'Tier 1' }, [
    'tier-activated',
    'tier-error',
  ]);
  if (answer.event !== 'tier-activated')
    throw new Error(`activation refused: ${JSON.stringify(answer.payload)}`);
  server.demo.setLive(username, true, 12);
  return { keypair, wallet, username, activation: signature, activatedAt, socket };
}

export async function startStream(s: TestStreamer & { socket: Client }, tier = 'Tier 1') {
  return request(
    s.socket,
    'start-stream',
    { platform: 'demo', wallet: s.wallet, username: s.username, tier },
    ['stream-started', 'room-error', 'error', 'dailyLimitReached'],
  );
}

/**
 * Requests to API processes (support/process.ts) that sign their tokens with `jwtSecret`: a wallet's session
 * token, and an authenticated REST call that throws on any answer but 2xx.
 */
export function processClient(jwtSecret: string) {
  const config = loadConfig({ NODE_ENV: 'test', JWT_SECRET: jwtSecret, DATABASE_URL: 'postgres://x/y' });
  const tokenFor = (wallet: string) => issueAuthToken(config, wallet, systemClock);
  async function call(url: string, wallet: string, method: string, path: string, body: unknown) {
    const res = await fetch(`${url}/api/v1${path}`, {
      method,
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${tokenFor(wallet)}` },
      body: JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
    return res.json();
  }
  return { tokenFor, call };
}
