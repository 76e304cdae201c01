// Beta access is the server's rule, not only a screen (docs/product.md#beta-access): a wallet without it (nor
// admin) is refused at the socket handshake, at the platform and mining routes, at start-stream and at
// collect, each saying why; revoking it (admin API or CLI) ends the wallet's live session and closes its
// sockets. A flood of events from one socket is answered by the event limit while another wallet's session
// keeps its updates. A real server on the local chain, with the wall clock (mining-updates every 200 ms).
import { Keypair } from '@solana/web3.js';
import { fundWallet } from '@strm/local-chain';
import { SERVER_MESSAGES } from '@strm/shared';
import { io as connectSocket } from 'socket.io-client';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAdminCommand } from '../src/cli.ts';
import { createPrisma } from '../src/db/index.ts';
import { issueAuthToken } from '../src/services/auth/tokens.ts';
import {
  type Client,
  connect,
  type EngineServer,
  next,
  readyStreamer,
  request as socketRequest,
  selfTransfer,
  startEngineServer,
  startStream,
  startTestChain,
  type TestChain,
  wallClock,
  tokenUnits,
  waitFor,
} from './support/engine-harness.ts';

const UPDATE_MS = 200;
const admin = Keypair.generate().publicKey.toBase58();
let chain: TestChain;
let server: EngineServer;
beforeAll(async () => {
  chain = await startTestChain();
  server = await startEngineServer(chain, {
    clock: wallClock,
    env: {
      ADMIN_WALLETS: admin,
      MINING_UPDATE_INTERVAL_MS: String(UPDATE_MS),
      SOCKET_EVENTS_PER_SECOND: '5',
      SOCKET_EVENT_BURST: '20',
      WALLET_EVENTS_PER_SECOND: '10',
      WALLET_EVENT_BURST: '40',
    },
  });
}, 180_000);
afterAll(async () => {
  await server?.close();
  await server?.drop();
  await chain?.stop();
});

const bearer = (wallet: string) => `Bearer ${issueAuthToken(server.config, wallet, server.clock)}`;
const newWallet = () => Keypair.generate().publicKey.toBase58();

/** The handshake's answer for `wallet` with a valid token: connected, or the refusal's data. */
async function handshake(wallet: string): Promise<{ connected: true } | { error: string; message: string }> {
  const socket = connectSocket(server.url, {
    transports: ['websocket'],
    auth: { wallet, authToken: issueAuthToken(server.config, wallet, server.clock) },
    reconnection: false,
    forceNew: true,
  });
  try {
    return await new Promise((resolve) => {
      socket.once('connect', () => resolve({ connected: true }));
      socket.once('connect_error', (err: Error) =>
        resolve((err as Error & { data: { error: string; message: string } }).data),
      );
    });
  } finally {
    socket.close();
  }
}

const refused = { error: 'beta_access_required', message: SERVER_MESSAGES.betaAccessRequired };

/** An admin grants access through the API (the instance forgets its kept refusal at once). */
async function grantByAdmin(wallet: string) {
  const res = await request(server.app.app)
    .put(`/api/v1/admin/beta-access/${wallet}`)
    .set('Authorization', bearer(admin));
  expect(res.status).toBe(200);
}

/** Removes the wallet's access in the database the way no notification announces (an operator's SQL). */
const dropAccessSilently = (wallet: string) =>
  server.prisma.$executeRaw`DELETE FROM beta_access WHERE wallet = ${wallet}`;

describe('a wallet without beta access', () => {
  it('is refused at the socket handshake, saying why; with access (or as an admin) it connects', async () => {
    const wallet = newWallet();
    expect(await handshake(wallet)).toEqual(refused);
    await grantByAdmin(wallet);
    expect(await handshake(wallet)).toEqual({ connected: true });
    expect(await handshake(admin)).toEqual({ connected: true });
  });

  it('is refused at the platform and mining routes with a 403 that says why', async () => {
    const wallet = newWallet();
    const api = request(server.app.app);
    const answers = [
      await api.get('/api/v1/streamer-platforms').set('Authorization', bearer(wallet)),
      await api.get('/api/v1/twitch/auth').set('Authorization', bearer(wallet)),
      await api
        .post('/api/v1/streamer-validation')
        .set('Authorization', bearer(wallet))
        .send({ platform: 'tiktok', wallet }),
      await api
        .post('/api/v1/update-streamer-username')
        .set('Authorization', bearer(wallet))
        .send({ platform: 'tiktok', username: 'someone' }),
      await api.get('/api/v1/streamer/mining-stats').set('Authorization', bearer(wallet)),
      await api
        .put('/api/v1/streamer/timezone')
        .set('Authorization', bearer(wallet))
        .send({ timezone: 'Europe/Paris' }),
      await api.post('/api/v1/dev/demo/account').set('Authorization', bearer(wallet)).send({ username: 'x' }),
    ];
    for (const res of answers) {
      expect(res.status).toBe(403);
      expect(res.body).toEqual(refused);
    }
    expect(await server.prisma.platformAccount.count({ where: { wallet } })).toBe(0);
    await grantByAdmin(wallet);
    const allowed = await api.get('/api/v1/streamer-platforms').set('Authorization', bearer(wallet));
    expect(allowed.status).toBe(200);
  });

  it('is refused at start-stream when the database no longer has its access, and nothing starts', async () => {
    const s = await readyStreamer(chain, server);
    await dropAccessSilently(s.wallet);
    const answer = await startStream(s);
    expect(answer).toEqual({
      event: 'error',
      payload: { message: SERVER_MESSAGES.betaAccessRequired, event: 'start-stream' },
    });
    expect(await server.prisma.miningSession.count({ where: { wallet: s.wallet } })).toBe(0);
    s.socket.close();
  });

  it('is refused at collect-rewards, and its pending reward and balance stay', async () => {
    const keypair = Keypair.generate();
    const wallet = keypair.publicKey.toBase58();
    await fundWallet(chain.local.connection, chain.local.info, keypair.publicKey, { sol: 1, strm: 0 });
    await server.prisma.streamer.create({ data: { wallet, pendingRewardUnits: 3_000_000n } });
    // Access given without the notification a grant sends: handled after the silent drop below, that
    // notification would find no access and end the wallet's sockets as a revoke.
    await server.prisma.betaAccess.create({ data: { wallet, grantedBy: 'test-setup' } });
    const socket = await connect(server, wallet, { access: false });
    await dropAccessSilently(wallet);
    const signature = await selfTransfer(chain, keypair);
    const answer = await socketRequest(
      socket,
      'collect-rewards',
      { signature, wallet },
      ['rewards-collected', 'rewards-error', 'error'],
      60_000,
    );
    expect(answer).toEqual({
      event: 'rewards-error',
      payload: { message: SERVER_MESSAGES.betaAccessRequired },
    });
    const streamer = await server.prisma.streamer.findUniqueOrThrow({ where: { wallet } });
    expect(streamer.pendingRewardUnits).toBe(3_000_000n);
    expect(await tokenUnits(chain, keypair.publicKey)).toBe(0n);
    expect(await server.prisma.rewardClaim.count({ where: { wallet } })).toBe(0);
    socket.close();
  });
});

/** What a live streamer's tab sees when its access goes: the session's end, the reason, the disconnect. */
function watchRevocation(socket: Client) {
  return Promise.all([
    next<{ reason: string }>(socket, 'stream-stopped', 20_000),
    next<{ message: string }>(socket, 'error', 20_000),
    new Promise<string>((resolve) => socket.once('disconnect', (reason) => resolve(reason))),
  ]);
}

async function expectRevoked(s: { wallet: string }, seen: Awaited<ReturnType<typeof watchRevocation>>) {
  const [stopped, error, disconnect] = seen;
  expect(stopped.reason).toBe('access-revoked');
  expect(error.message).toBe(SERVER_MESSAGES.accessRevoked);
  expect(disconnect).toBe('io server disconnect');
  const session = await server.prisma.miningSession.findFirstOrThrow({ where: { wallet: s.wallet } });
  expect(session).toMatchObject({ endReason: 'access-revoked' });
  expect(session.endedAt).not.toBeNull();
  // The next handshake is refused, and so are the routes.
  expect(await handshake(s.wallet)).toEqual(refused);
  const res = await request(server.app.app)
    .get('/api/v1/streamer/mining-stats')
    .set('Authorization', bearer(s.wallet));
  expect(res.status).toBe(403);
}

describe('revoking beta access', () => {
  it('through the admin API ends the live session and disconnects every socket of the wallet', async () => {
    const s = await readyStreamer(chain, server);
    expect((await startStream(s)).event).toBe('stream-started');
    const tab = await connect(server, s.wallet);
    const seen = watchRevocation(s.socket);
    const tabClosed = new Promise<string>((resolve) => tab.once('disconnect', (reason) => resolve(reason)));
    const res = await request(server.app.app)
      .delete(`/api/v1/admin/beta-access/${s.wallet}`)
      .set('Authorization', bearer(admin));
    expect(res.status).toBe(200);
    await expectRevoked(s, await seen);
    expect(await tabClosed).toBe('io server disconnect');
  });

  it('through the CLI (another process on the database) does the same', async () => {
    const s = await readyStreamer(chain, server);
    expect((await startStream(s)).event).toBe('stream-started');
    const seen = watchRevocation(s.socket);
    const cli = createPrisma(server.databaseUrl);
    try {
      await runAdminCommand(
        { prisma: cli, config: { adminWallets: new Set() }, actor: 'cli:operator' },
        ['revoke', s.wallet],
        () => {},
      );
    } finally {
      await cli.$disconnect();
    }
    await expectRevoked(s, await seen);
  });
});

describe('socket event limits', () => {
  it('answer a flood of 1,000 events from one socket with the limit, while another wallet’s session keeps its updates', async () => {
    const live = await readyStreamer(chain, server);
    const updates: number[] = [];
    live.socket.on('mining-update', () => updates.push(Date.now()));
    expect((await startStream(live)).event).toBe('stream-started');
    await waitFor(() => updates.length >= 3);

    const flooder = newWallet();
    const socket = await connect(server, flooder);
    const answered: string[] = [];
    const limited: Array<{ message: string; event?: string }> = [];
    socket.on('stream-stopped', () => answered.push('stream-stopped'));
    socket.on('error', (e: { message: string; event?: string }) => {
      if (e.message === SERVER_MESSAGES.tooManyRequests) limited.push(e);
      else answered.push('error');
    });
    const floodStart = Date.now();
    for (let i = 0; i < 1000; i++) socket.emit('stop-stream', { platform: 'demo', wallet: flooder });
    await waitFor(() => limited.length > 0, 20_000);
    expect(limited[0]).toEqual({ message: SERVER_MESSAGES.tooManyRequests, event: 'stop-stream' });
    // The events over the limit were dropped before any work: only the socket's burst (20) was answered,
    // plus what its bucket refilled meanwhile (5 a second).
    const seenUpdates = updates.length;
    await waitFor(() => updates.length >= seenUpdates + 5, 20_000);
    const elapsedS = (Date.now() - floodStart) / 1000;
    expect(answered.length).toBeLessThanOrEqual(20 + Math.ceil(elapsedS * 5) + 1);
    expect(answered.length).toBeGreaterThan(0);
    // The live wallet's updates kept coming through the flood (each within a few intervals of the last).
    const times = [floodStart, ...updates.filter((t) => t >= floodStart)];
    const gaps = times.slice(1).map((t, i) => t - times[i]!);
    expect(Math.max(...gaps)).toBeLessThan(10 * UPDATE_MS);
    socket.close();
    await socketRequest(live.socket, 'stop-stream', { platform: 'demo', wallet: live.wallet }, [
      'stream-stopped',
    ]);
    live.socket.close();
  }, 120_000);

  it('count a wallet’s events across its sockets', async () => {
    const wallet = newWallet();
    const tabs = await Promise.all([1, 2, 3].map(() => connect(server, wallet)));
    const limited: number[] = [];
    for (const [i, tab] of tabs.entries()) {
      tab.on('error', (e: { message: string }) => {
        if (e.message === SERVER_MESSAGES.tooManyRequests) limited.push(i);
      });
    }
    // 15 events per tab: within each socket's burst (20), over the wallet's (40) together.
    for (const tab of tabs)
      for (let i = 0; i < 15; i++) tab.emit('stop-stream', { platform: 'demo', wallet });
    await waitFor(() => limited.length > 0, 20_000);
    for (const tab of tabs) tab.close();
  });
});
