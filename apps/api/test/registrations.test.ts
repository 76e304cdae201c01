import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Keypair } from '@solana/web3.js';
import { type LocalChain, startLocalChain } from '@strm/local-chain';
import { freePortPair } from '@strm/testing';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRpc } from '../src/rpc/rpc.ts';
import { type SignedIn, signIn } from './support/sign-in.ts';
import { startTestApp, type TestApp } from './support/test-app.ts';

let dataDir: string;
let local: LocalChain;
let t: TestApp;
let noChain: TestApp;

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'strm-api-reg-'));
  await chmod(dataDir, 0o755);
  local = await startLocalChain({ dataDir, rpcPort: await freePortPair(), reset: true });
  t = await startTestApp({ rpc: createRpc(local.rpcUrl, local.wsUrl), localChainInfo: local.info });
  noChain = await startTestApp();
});
afterAll(async () => {
  await t?.close();
  await noChain?.close();
  await local?.stop();
  await rm(dataDir, { recursive: true, force: true });
});

const form = {
  name: 'Ada Lovelace',
  email: 'ada@example.com',
  platform: 'twitch',
  platform_username: 'ada_live',
  discord_username: 'ada#1815',
  streaming_frequency: '3-5 times per week',
  follower_count: '1200',
  content_type: 'Crypto/Web3',
  project_interest: 'I want to reward my community for watching.',
};

async function funded(strm: number): Promise<SignedIn> {
  const me = await signIn(t.app);
  const res = await request(t.app).post('/api/v1/dev/faucet').send({ wallet: me.wallet, strm, sol: 0.01 });
  expect(res.status).toBe(200);
  return me;
}

describe('POST /api/v1/registrations', () => {
  it('registers the signed-in wallet with the balance the server reads from the chain, in base units', async () => {
    const me = await funded(1234);
    const before = await request(t.app).get('/api/v1/registrations/me').set(me.auth);
    expect(before.status).toBe(404);
    expect(before.body).toEqual({ error: 'not_registered', message: 'This wallet has not registered' });

    // A client claiming a balance is ignored.
    const res = await request(t.app)
      .post('/api/v1/registrations')
      .set(me.auth)
      .send({ ...form, token_balance: 99_999_999, STRM_tokens: 99_999_999 });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      wallet: me.wallet,
      name: 'Ada Lovelace',
      email: 'ada@example.com',
      platform: 'twitch',
      platform_username: 'ada_live',
      discord_username: 'ada#1815',
      token_balance: 1234,
      streaming_frequency: '3-5 times per week',
      follower_count: 1200,
      content_type: 'Crypto/Web3',
      project_interest: 'I want to reward my community for watching.',
      created_at: t.clock.now().toISOString(),
    });
    const row = await t.prisma.betaRegistration.findUniqueOrThrow({ where: { wallet: me.wallet } });
    expect(row.tokenBalance).toBe(1_234_000_000n);

    const after = await request(t.app).get('/api/v1/registrations/me').set(me.auth);
    expect(after.status).toBe(200);
    expect(after.body).toEqual(res.body);
  });

  it('stores 0 for a wallet without a token account, and the platform defaults to tiktok', async () => {
    const me = await signIn(t.app);
    const { platform: _platform, discord_username: _discord, ...rest } = form;
    const res = await request(t.app).post('/api/v1/registrations').set(me.auth).send(rest);
    expect(res.status).toBe(201);
    expect(res.body.token_balance).toBe(0);
    expect(res.body.platform).toBe('tiktok');
    expect(res.body.discord_username).toBeUndefined();
  });

  it('refuses a second registration with 409 and keeps the first', async () => {
    const me = await funded(10);
    expect((await request(t.app).post('/api/v1/registrations').set(me.auth).send(form)).status).toBe(201);
    const again = await request(t.app)
      .post('/api/v1/registrations')
      .set(me.auth)
      .send({ ...form, name: 'Someone Else' });
    expect(again.status).toBe(409);
    expect(again.body).toEqual({
      error: 'already_registered',
      message: 'This wallet is already registered for the beta',
    });
    const row = await t.prisma.betaRegistration.findUniqueOrThrow({ where: { wallet: me.wallet } });
    expect(row.name).toBe('Ada Lovelace');
  });

  it.each([
    [{ name: '' }, 'Name is required'],
    [{ name: undefined }, 'Name is required'],
    [{ email: 'ada.example.com' }, 'Enter a valid email address'],
    [{ email: undefined }, 'Email is required'],
    [{ platform: 'myspace' }, 'Choose a streaming platform'],
    [{ platform_username: '   ' }, 'Platform username is required'],
    [{ discord_username: 'x'.repeat(101) }, 'Discord username is too long'],
    [{ streaming_frequency: 'Hourly' }, 'Choose a streaming frequency'],
    [{ streaming_frequency: undefined }, 'Choose a streaming frequency'],
    [{ follower_count: '' }, 'Follower count is required'],
    [{ follower_count: undefined }, 'Follower count is required'],
    [{ follower_count: '12.5' }, 'Follower count must be a whole number'],
    [{ follower_count: 'lots' }, 'Follower count must be a number'],
    [{ follower_count: -3 }, 'Follower count cannot be negative'],
    [{ content_type: 'Cooking' }, 'Choose a content type'],
    [{ project_interest: '' }, 'Project interest is required'],
  ])('refuses %o with 400 "%s" and stores nothing', async (change, message) => {
    const me = await signIn(t.app);
    const res = await request(t.app)
      .post('/api/v1/registrations')
      .set(me.auth)
      .send({ ...form, ...change });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: 'validation_error', message });
    expect(await t.prisma.betaRegistration.count({ where: { wallet: me.wallet } })).toBe(0);
  });

  it('refuses a body naming another wallet with 403', async () => {
    const me = await signIn(t.app);
    const res = await request(t.app)
      .post('/api/v1/registrations')
      .set(me.auth)
      .send({ ...form, wallet: Keypair.generate().publicKey.toBase58() });
    expect(res.status).toBe(403);
    expect(res.body.error).toBe('wallet_mismatch');
    expect(await t.prisma.betaRegistration.count({ where: { wallet: me.wallet } })).toBe(0);
  });

  it('refuses an anonymous registration with 401', async () => {
    const res = await request(t.app).post('/api/v1/registrations').send(form);
    expect(res.status).toBe(401);
  });

  it('refuses with 503 and stores nothing when the chain cannot be read', async () => {
    const me = await signIn(noChain.app);
    const res = await request(noChain.app).post('/api/v1/registrations').set(me.auth).send(form);
    expect(res.status).toBe(503);
    expect(res.body).toEqual({
      error: 'chain_unavailable',
      message: 'Could not read the token balance from the chain, please try again',
    });
    expect(await noChain.prisma.betaRegistration.count()).toBe(0);
  });
});

describe('GET /api/v1/token-balance', () => {
  it("answers the signed-in wallet's balance read from the chain", async () => {
    const me = await funded(2500);
    const res = await request(t.app).get('/api/v1/token-balance').set(me.auth);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ wallet: me.wallet, balance: 2500, units: '2500000000' });
  });
});
