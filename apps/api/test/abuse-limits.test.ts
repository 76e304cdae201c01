// The server's abuse limits (docs/security.md#rate-and-connection-limits): a cap of sockets per wallet, a
// limit on handshakes per client address (which `trust proxy` decides, as for REST), a socket closed when its
// token expires, sign-in signatures already refused answered from memory, and REST limits shared by the
// instances of one deployment through Redis (the machine's, TEST_REDIS_URL to override). Real apps over
// PostgreSQL.
import { Keypair } from '@solana/web3.js';
import { SERVER_MESSAGES } from '@strm/shared';
import { io as connectSocket, type Socket } from 'socket.io-client';
import request from 'supertest';
import { freePort } from '@strm/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config.ts';
import { issueAuthToken } from '../src/services/auth/tokens.ts';
import { getNonce, signMessage } from './support/sign-in.ts';
import { grantAccess, startTestApp, type TestApp } from './support/test-app.ts';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const apps: TestApp[] = [];
const sockets: Socket[] = [];
afterAll(async () => {
  for (const s of sockets) s.close();
  for (const app of apps.reverse()) await app.close();
});

async function listening(env: Record<string, string>, databaseUrl?: string) {
  const t = await startTestApp({ env, databaseUrl });
  apps.push(t);
  await new Promise<void>((resolve) => t.server.listen(0, '127.0.0.1', resolve));
  return { ...t, url: `http://127.0.0.1:${(t.server.address() as { port: number }).port}` };
}

type Refusal = { error: string; message: string };

/** Opens a socket: connected, or the refusal's data. */
function open(
  t: { url: string; config: TestApp['config']; clock: TestApp['clock'] },
  wallet: string,
  headers: Record<string, string> = {},
): Promise<{ socket: Socket } | { refused: Refusal }> {
  const socket = connectSocket(t.url, {
    transports: ['websocket'],
    auth: { wallet, authToken: issueAuthToken(t.config, wallet, t.clock) },
    extraHeaders: headers,
    reconnection: false,
    forceNew: true,
  });
  sockets.push(socket);
  return new Promise((resolve) => {
    socket.once('connect', () => resolve({ socket }));
    socket.once('connect_error', (err: Error) => {
      socket.close();
      resolve({ refused: (err as Error & { data: Refusal }).data });
    });
  });
}

const newWallet = () => Keypair.generate().publicKey.toBase58();

describe('sockets per wallet', () => {
  it('refuses a wallet’s socket over SOCKETS_PER_WALLET, saying why, and admits one again once another closes', async () => {
    const t = await listening({ SOCKETS_PER_WALLET: '2' });
    const wallet = newWallet();
    await grantAccess(t.prisma, wallet);
    const first = await open(t, wallet);
    const second = await open(t, wallet);
    expect('socket' in first && 'socket' in second).toBe(true);
    expect(await open(t, wallet)).toEqual({
      refused: { error: 'too_many_connections', message: SERVER_MESSAGES.tooManyConnections },
    });
    // Another wallet is not concerned.
    const other = newWallet();
    await grantAccess(t.prisma, other);
    expect('socket' in (await open(t, other))).toBe(true);
    if ('socket' in first) first.socket.close();
    // Admitted once the server has seen the close.
    for (;;) {
      const again = await open(t, wallet);
      if ('socket' in again) break;
      expect(again.refused.error).toBe('too_many_connections');
    }
  });

  it('counts a wallet’s sockets on every instance together (REDIS_URL), and releases them as they close', async () => {
    const env = { REDIS_URL, SOCKETS_PER_WALLET: '2' };
    const a = await listening(env);
    const b = await listening(env, a.databaseUrl);
    const wallet = newWallet();
    await grantAccess(a.prisma, wallet);
    const onA = await open(a, wallet);
    const onB = await open(b, wallet);
    expect('socket' in onA && 'socket' in onB).toBe(true);
    // The third, on either instance: refused, although each holds only one.
    for (const t of [a, b]) {
      expect(await open(t, wallet)).toEqual({
        refused: { error: 'too_many_connections', message: SERVER_MESSAGES.tooManyConnections },
      });
    }
    if ('socket' in onA) onA.socket.close();
    for (;;) {
      const again = await open(b, wallet);
      if ('socket' in again) break;
      expect(again.refused.error).toBe('too_many_connections');
    }
  });

  it('still caps a wallet’s sockets per instance while Redis cannot be reached', async () => {
    const t = await listening({
      REDIS_URL: `redis://127.0.0.1:${await freePort()}`,
      SOCKETS_PER_WALLET: '1',
    });
    const wallet = newWallet();
    await grantAccess(t.prisma, wallet);
    expect('socket' in (await open(t, wallet))).toBe(true);
    expect(await open(t, wallet)).toEqual({
      refused: { error: 'too_many_connections', message: SERVER_MESSAGES.tooManyConnections },
    });
  });
});

describe('handshakes per client address', () => {
  it('refuses an address over SOCKET_HANDSHAKES_PER_MINUTE; behind a trusted proxy the forwarded address counts', async () => {
    const t = await listening({ SOCKET_HANDSHAKES_PER_MINUTE: '5' });
    const wallet = newWallet();
    await grantAccess(t.prisma, wallet);
    for (let i = 0; i < 5; i++) {
      const answer = await open(t, wallet);
      expect('socket' in answer).toBe(true);
      if ('socket' in answer) answer.socket.close();
    }
    expect(await open(t, wallet)).toEqual({
      refused: { error: 'rate_limited', message: SERVER_MESSAGES.tooManyConnectionAttempts },
    });
    // Through a proxy on loopback (TRUST_PROXY's default) the client's own address has its own bucket.
    expect('socket' in (await open(t, wallet, { 'x-forwarded-for': '203.0.113.7' }))).toBe(true);
  });

  it('keeps no HTTP request per connection: the forwarded address is read once, at the connection’s start', async () => {
    const t = await listening({ SOCKET_HANDSHAKES_PER_MINUTE: '1' });
    const wallet = newWallet();
    await grantAccess(t.prisma, wallet);
    expect('socket' in (await open(t, wallet, { 'x-forwarded-for': '203.0.113.8' }))).toBe(true);
    // The admitted socket holds no request (Socket.IO would keep it, headers and all, for the connection's
    // life), yet the next handshake from that forwarded address is still counted against it.
    const [admitted] = [...t.io.of('/').sockets.values()];
    expect(admitted?.request).toBeNull();
    expect(await open(t, wallet, { 'x-forwarded-for': '203.0.113.8' })).toEqual({
      refused: { error: 'rate_limited', message: SERVER_MESSAGES.tooManyConnectionAttempts },
    });
    expect('socket' in (await open(t, wallet, { 'x-forwarded-for': '203.0.113.9' }))).toBe(true);
  });

  it('counts an IPv6 client by its /56, as the REST limits do: rotating addresses in the block does not help', async () => {
    const t = await listening({ SOCKET_HANDSHAKES_PER_MINUTE: '3' });
    const wallet = newWallet();
    await grantAccess(t.prisma, wallet);
    // Three addresses of one /56, then a fourth: refused, although that address itself never connected.
    for (const host of ['2001:db8:0:1::1', '2001:db8:0:2::2', '2001:db8:0:3::3']) {
      const answer = await open(t, wallet, { 'x-forwarded-for': host });
      expect('socket' in answer).toBe(true);
      if ('socket' in answer) answer.socket.close();
    }
    expect(await open(t, wallet, { 'x-forwarded-for': '2001:db8:0:4::4' })).toEqual({
      refused: { error: 'rate_limited', message: SERVER_MESSAGES.tooManyConnectionAttempts },
    });
    // Another block has its own count.
    expect('socket' in (await open(t, wallet, { 'x-forwarded-for': '2001:db8:1::1' }))).toBe(true);
  });

  it('TRUST_PROXY takes true/false, a hop count or addresses and subnets, and refuses anything else', () => {
    const base = { NODE_ENV: 'test', DATABASE_URL: 'postgres://x/y' };
    expect(loadConfig({ ...base }).trustProxy).toEqual(['loopback']);
    expect(loadConfig({ ...base, TRUST_PROXY: 'true' }).trustProxy).toBe(true);
    expect(loadConfig({ ...base, TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(loadConfig({ ...base, TRUST_PROXY: '10.0.0.0/8, loopback' }).trustProxy).toEqual([
      '10.0.0.0/8',
      'loopback',
    ]);
    expect(() => loadConfig({ ...base, TRUST_PROXY: 'the-balancer' })).toThrow(ConfigError);
    expect(() => loadConfig({ ...base, TRUST_PROXY: 'the-balancer' })).toThrow(/TRUST_PROXY/);
  });
});

describe('a socket whose token expires', () => {
  it('is told its session expired and closed', async () => {
    const t = await listening({ JWT_TTL_SECONDS: '2' });
    const wallet = newWallet();
    await grantAccess(t.prisma, wallet);
    const opened = await open(t, wallet);
    if (!('socket' in opened)) throw new Error(`refused: ${JSON.stringify(opened.refused)}`);
    const told = new Promise<{ message: string }>((resolve) => opened.socket.once('error', resolve));
    const closed = new Promise<string>((resolve) => opened.socket.once('disconnect', resolve));
    expect(await told).toEqual({ message: SERVER_MESSAGES.sessionExpired });
    expect(await closed).toBe('io server disconnect');
  });
});

describe('sign-in signatures already refused', () => {
  it('are refused again from memory, while the right signature for the same nonce still signs in', async () => {
    const t = await listening({});
    const keypair = Keypair.generate();
    const wallet = keypair.publicKey.toBase58();
    const { nonce, message } = await getNonce(t.app, wallet);
    const forged = { publicKey: wallet, signedMessage: signMessage(Keypair.generate(), message), nonce };
    const remembered = async () => {
      const metrics = await request(t.app).get('/metrics');
      return Number(/^strm_sign_in_refusals_remembered_total (\d+)/m.exec(metrics.text)?.[1]);
    };
    for (let i = 0; i < 3; i++) {
      const res = await request(t.app).post('/api/v1/authenticate').send(forged);
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ error: 'invalid_signature', message: 'Invalid signature' });
    }
    expect(await remembered()).toBe(2);
    const signed = await request(t.app)
      .post('/api/v1/authenticate')
      .send({ publicKey: wallet, signedMessage: signMessage(keypair, message), nonce });
    expect(signed.status).toBe(200);
  });
});

describe('REST limits with REDIS_URL', () => {
  it('are shared by two instances on one database', async () => {
    const env = { REDIS_URL, RATE_LIMIT_PER_MINUTE: '10' };
    const a = await listening(env);
    const b = await listening(env, a.databaseUrl);
    for (let i = 0; i < 10; i++) expect((await request(a.app).get('/api/v1/tiers')).status).toBe(200);
    const refused = await request(b.app).get('/api/v1/tiers');
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({ error: 'rate_limited', message: SERVER_MESSAGES.tooManyRequests });
  });

  it('count socket handshakes per client address across the instances too', async () => {
    const env = { REDIS_URL, SOCKET_HANDSHAKES_PER_MINUTE: '3' };
    const a = await listening(env);
    const b = await listening(env, a.databaseUrl);
    const wallet = newWallet();
    await grantAccess(a.prisma, wallet);
    const client = { 'x-forwarded-for': '198.51.100.23' };
    for (const t of [a, a, b]) {
      const answer = await open(t, wallet, client);
      expect('socket' in answer).toBe(true);
      if ('socket' in answer) answer.socket.close();
    }
    // The fourth in the minute, on the instance that saw only one: refused.
    expect(await open(b, wallet, client)).toEqual({
      refused: { error: 'rate_limited', message: SERVER_MESSAGES.tooManyConnectionAttempts },
    });
  });

  it('still hold, per instance, while Redis cannot be reached (they used to let everything through)', async () => {
    // A port nothing listens on: every Redis command fails.
    const down = `redis://127.0.0.1:${await freePort()}`;
    const t = await listening({ REDIS_URL: down, RATE_LIMIT_PER_MINUTE: '3' });
    const answers = [];
    for (let i = 0; i < 4; i++) answers.push((await request(t.app).get('/api/v1/tiers')).status);
    expect(answers).toEqual([200, 200, 200, 429]);
  });
});
