import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Keypair } from '@solana/web3.js';
import { parseSignInMessageText } from '@solana/wallet-standard-util';
import jwt from 'jsonwebtoken';
import { io as connectSocket } from 'socket.io-client';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.ts';
import { resolveJwtSecret } from '../src/services/auth/secret.ts';
import { getNonce, signIn, signMessage } from './support/sign-in.ts';
import { grantAccess, startTestApp, TEST_JWT_SECRET, type TestApp } from './support/test-app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const authenticate = (body: unknown) =>
  request(t.app)
    .post('/api/v1/authenticate')
    .send(body as object);

describe('GET /api/v1/nonce', () => {
  it('answers a Sign-In-With-Solana message naming the domain, wallet, nonce and a 5-minute expiry', async () => {
    const wallet = Keypair.generate().publicKey.toBase58();
    const res = await request(t.app).get('/api/v1/nonce').query({ publicKey: wallet });
    expect(res.status).toBe(200);
    expect(res.body.nonce).toMatch(/^[0-9a-f]{32}$/);
    const fields = parseSignInMessageText(res.body.message);
    const now = t.clock.now();
    expect(fields).toEqual({
      domain: '127.0.0.1:3000',
      address: wallet,
      statement: 'Sign in to the STRM Mining Platform.',
      uri: 'http://127.0.0.1:3000',
      version: '1',
      chainId: 'solana:localnet',
      nonce: res.body.nonce,
      issuedAt: now.toISOString(),
      expirationTime: new Date(now.getTime() + 5 * 60_000).toISOString(),
      notBefore: undefined,
      requestId: undefined,
      resources: undefined,
    });
    expect(res.body.expiresAt).toBe(fields?.expirationTime);
  });

  it('gives a different nonce every time', async () => {
    const wallet = Keypair.generate().publicKey.toBase58();
    const a = await getNonce(t.app, wallet);
    const b = await getNonce(t.app, wallet);
    expect(a.nonce).not.toBe(b.nonce);
  });

  it('refuses a missing or malformed public key with 400', async () => {
    const missing = await request(t.app).get('/api/v1/nonce');
    expect(missing.status).toBe(400);
    expect(missing.body.error).toBe('validation_error');
    const bad = await request(t.app).get('/api/v1/nonce').query({ publicKey: 'not-a-key' });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toContain('Invalid wallet address');
  });

  it('purges expired nonces', async () => {
    await getNonce(t.app, Keypair.generate().publicKey.toBase58());
    t.clock.advance(5 * 60_000 + 1);
    await getNonce(t.app, Keypair.generate().publicKey.toBase58());
    const expired = await t.prisma.authNonce.count({ where: { expiresAt: { lt: t.clock.now() } } });
    expect(expired).toBe(0);
  });
});

describe('POST /api/v1/authenticate', () => {
  it('signs a wallet in: a HS256 JWT whose subject is the wallet, valid for JWT_TTL_SECONDS', async () => {
    const keypair = Keypair.generate();
    const wallet = keypair.publicKey.toBase58();
    const { nonce, message } = await getNonce(t.app, wallet);
    const res = await authenticate({
      publicKey: wallet,
      signedMessage: signMessage(keypair, message),
      nonce,
    });
    expect(res.status).toBe(200);
    const decoded = jwt.decode(res.body.token, { complete: true });
    expect(decoded?.header.alg).toBe('HS256');
    const payload = decoded?.payload as jwt.JwtPayload;
    expect(payload.sub).toBe(wallet);
    expect(payload.exp! - payload.iat!).toBe(86_400);
    expect(payload.iat).toBe(Math.floor(t.clock.now().getTime() / 1000));

    const me = await request(t.app)
      .get('/api/v1/beta-access')
      .set('Authorization', `Bearer ${res.body.token}`);
    expect(me.status).toBe(200);
    expect(me.body).toEqual({ hasAccess: false });
  });

  it('refuses a replayed nonce', async () => {
    const keypair = Keypair.generate();
    const wallet = keypair.publicKey.toBase58();
    const { nonce, message } = await getNonce(t.app, wallet);
    const body = { publicKey: wallet, signedMessage: signMessage(keypair, message), nonce };
    expect((await authenticate(body)).status).toBe(200);
    const replay = await authenticate(body);
    expect(replay.status).toBe(401);
    expect(replay.body).toEqual({ error: 'nonce_used', message: 'Nonce already used, please sign in again' });
  });

  it('lets exactly one of two concurrent sign-ins with the same nonce through', async () => {
    const keypair = Keypair.generate();
    const wallet = keypair.publicKey.toBase58();
    const { nonce, message } = await getNonce(t.app, wallet);
    const body = { publicKey: wallet, signedMessage: signMessage(keypair, message), nonce };
    const results = await Promise.all(Array.from({ length: 5 }, () => authenticate(body)));
    expect(results.map((r) => r.status).sort()).toEqual([200, 401, 401, 401, 401]);
  });

  it('refuses an expired nonce', async () => {
    const keypair = Keypair.generate();
    const wallet = keypair.publicKey.toBase58();
    const { nonce, message } = await getNonce(t.app, wallet);
    t.clock.advance(5 * 60_000);
    const res = await authenticate({
      publicKey: wallet,
      signedMessage: signMessage(keypair, message),
      nonce,
    });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ error: 'nonce_expired', message: 'Nonce expired, please sign in again' });
  });

  it('refuses an unknown nonce', async () => {
    const keypair = Keypair.generate();
    const wallet = keypair.publicKey.toBase58();
    const { message } = await getNonce(t.app, wallet);
    const res = await authenticate({
      publicKey: wallet,
      signedMessage: signMessage(keypair, message),
      nonce: 'f'.repeat(32),
    });
    expect(res.status).toBe(401);
    expect(res.body.error).toBe('invalid_nonce');
  });

  it('refuses a signature of another message', async () => {
    const keypair = Keypair.generate();
    const wallet = keypair.publicKey.toBase58();
    const { nonce, message } = await getNonce(t.app, wallet);
    const res = await authenticate({
      publicKey: wallet,
      signedMessage: signMessage(keypair, message.replace('Sign in', 'Send all my tokens')),
      nonce,
    });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ error: 'invalid_signature', message: 'Invalid signature' });
  });

  it("refuses another wallet's key: a message signed by one wallet cannot sign in as another", async () => {
    const victim = Keypair.generate().publicKey.toBase58();
    const attacker = Keypair.generate();
    const { nonce, message } = await getNonce(t.app, victim);
    const res = await authenticate({
      publicKey: victim,
      signedMessage: signMessage(attacker, message),
      nonce,
    });
    expect(res.status).toBe(401);
    expect(res.body.error).toBe('invalid_signature');
  });

  it('refuses a malformed key or signature with 401 and an error field', async () => {
    const keypair = Keypair.generate();
    const { nonce, message } = await getNonce(t.app, keypair.publicKey.toBase58());
    const signedMessage = signMessage(keypair, message);
    const badKey = await authenticate({ publicKey: 'zzz', signedMessage, nonce });
    expect(badKey.status).toBe(401);
    expect(badKey.body).toEqual({ error: 'invalid_public_key', message: 'Invalid public key' });
    // Valid base58 of the wrong length is not an ed25519 key either.
    const shortKey = await authenticate({ publicKey: 'z'.repeat(32), signedMessage, nonce });
    expect(shortKey.status).toBe(401);
    expect(shortKey.body.error).toBe('invalid_public_key');
    const shortSig = await authenticate({
      publicKey: keypair.publicKey.toBase58(),
      signedMessage: signedMessage.slice(1),
      nonce,
    });
    expect(shortSig.status).toBe(401);
    expect(shortSig.body.error).toBe('invalid_request');
    expect((await authenticate({})).status).toBe(401);
  });

  it('is rate limited more strictly than the rest of the API', async () => {
    const limited = await startTestApp({ env: { AUTH_RATE_LIMIT_PER_MINUTE: '2' } });
    try {
      const post = () => request(limited.app).post('/api/v1/authenticate').send({});
      expect((await post()).status).toBe(401);
      expect((await post()).status).toBe(401);
      const third = await post();
      expect(third.status).toBe(429);
      expect(third.body).toEqual({
        error: 'rate_limited',
        message: 'Too many sign-in attempts, please wait a minute',
      });
      expect((await request(limited.app).get('/api/v1/maintenance')).status).toBe(200);
    } finally {
      await limited.close();
    }
  });
});

describe('bearer tokens', () => {
  const call = (token?: string) => {
    const req = request(t.app).get('/api/v1/beta-access');
    return token === undefined ? req : req.set('Authorization', `Bearer ${token}`);
  };

  it('refuses a request without a token', async () => {
    const res = await call();
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ error: 'unauthorized', message: 'Authentication token not found' });
  });

  it('refuses a tampered token', async () => {
    const { token } = await signIn(t.app);
    const [header, , signature] = token.split('.');
    const other = Keypair.generate().publicKey.toBase58();
    const forged = Buffer.from(
      JSON.stringify({ sub: other, iss: 'strm-api', iat: 1, exp: 9_999_999_999 }),
    ).toString('base64url');
    const res = await call(`${header}.${forged}.${signature}`);
    expect(res.status).toBe(401);
    expect(res.body.error).toBe('invalid_token');
  });

  it('refuses an expired token', async () => {
    const { token } = await signIn(t.app);
    t.clock.advance(86_400_000 + 1000);
    const res = await call(token);
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ error: 'token_expired', message: 'Session expired, please sign in again' });
  });

  it('refuses a token signed with another secret, or with no algorithm', async () => {
    const wallet = Keypair.generate().publicKey.toBase58();
    const now = Math.floor(t.clock.now().getTime() / 1000);
    const claims = { sub: wallet, iss: 'strm-api', iat: now, exp: now + 600 };
    const wrongSecret = jwt.sign(claims, 'another-secret-another-secret-another-secret', {
      algorithm: 'HS256',
    });
    expect((await call(wrongSecret)).status).toBe(401);
    const unsigned = jwt.sign(claims, '', { algorithm: 'none' });
    expect((await call(unsigned)).status).toBe(401);
    // The same claims with the right secret do pass: the refusals above are about the signature.
    const right = jwt.sign(claims, TEST_JWT_SECRET, { algorithm: 'HS256' });
    expect((await call(right)).status).toBe(200);
  });

  it('refuses a query naming another wallet with 403', async () => {
    const me = await signIn(t.app);
    const other = Keypair.generate().publicKey.toBase58();
    const res = await request(t.app).get('/api/v1/beta-access').query({ wallet: other }).set(me.auth);
    expect(res.status).toBe(403);
    expect(res.body.error).toBe('wallet_mismatch');
    const own = await request(t.app).get('/api/v1/beta-access').query({ wallet: me.wallet }).set(me.auth);
    expect(own.status).toBe(200);
  });
});

describe('the JWT secret', () => {
  it('is generated once into DATA_DIR with mode 0600 and reused after a restart', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'strm-secret-'));
    try {
      const config = loadConfig({ NODE_ENV: 'development', DATA_DIR: dir });
      const first = resolveJwtSecret(config);
      expect(first.length).toBeGreaterThanOrEqual(32);
      const file = join(dir, 'jwt-secret');
      expect((await stat(file)).mode & 0o777).toBe(0o600);
      expect((await readFile(file, 'utf8')).trim()).toBe(first);
      expect(resolveJwtSecret(config)).toBe(first);
      expect(resolveJwtSecret(loadConfig({ DATA_DIR: dir, JWT_SECRET: TEST_JWT_SECRET }))).toBe(
        TEST_JWT_SECRET,
      );
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('must be configured in production', () => {
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(
      'Invalid environment variable JWT_SECRET: required in production',
    );
  });
});

describe('the Socket.IO handshake', () => {
  let url: string;
  beforeAll(async () => {
    await new Promise<void>((resolve) => t.server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(t.server.address() as AddressInfo).port}`;
  });

  const connect = (auth: Record<string, unknown>) =>
    new Promise<{ connected: true } | { error: string; data: unknown }>((resolve) => {
      const socket = connectSocket(url, { transports: ['websocket'], auth, reconnection: false });
      socket.on('connect', () => {
        socket.close();
        resolve({ connected: true });
      });
      socket.on('connect_error', (err) => {
        socket.close();
        resolve({ error: err.message, data: (err as Error & { data?: unknown }).data });
      });
    });

  it('accepts a signed-in wallet with beta access', async () => {
    const me = await signIn(t.app);
    await grantAccess(t.prisma, me.wallet);
    expect(await connect({ wallet: me.wallet, authToken: me.token })).toEqual({ connected: true });
  });

  it('refuses a connection without a valid token, or naming another wallet', async () => {
    expect(await connect({})).toEqual({
      error: 'Authentication token not found',
      data: { error: 'unauthorized', message: 'Authentication token not found' },
    });
    expect(await connect({ wallet: 'x', authToken: 'not-a-jwt' })).toMatchObject({
      error: 'Invalid authentication token',
    });
    const me = await signIn(t.app);
    const other = Keypair.generate().publicKey.toBase58();
    expect(await connect({ wallet: other, authToken: me.token })).toMatchObject({
      data: { error: 'wallet_mismatch' },
    });
  });
});
