import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Keypair, PublicKey, SYSVAR_CLOCK_PUBKEY, SystemProgram } from '@solana/web3.js';
import { type LocalChain, startLocalChain } from '@strm/local-chain';
import { tokenBalance } from '@strm/mining-client';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRpc } from '../src/rpc/rpc.ts';
import { freePort } from './support/ports.ts';
import { startTestApp, type TestApp } from './support/test-app.ts';

let dataDir: string;
let local: LocalChain;
let withChain: TestApp;
let withoutFaucet: TestApp;

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'strm-api-chain-'));
  await chmod(dataDir, 0o755);
  let port = await freePort();
  while (port > 65_000) port = await freePort();
  local = await startLocalChain({ dataDir, rpcPort: port, reset: true });
  const rpc = createRpc(local.rpcUrl, local.wsUrl);
  withChain = await startTestApp({ rpc, localChainInfo: local.info });
  withoutFaucet = await startTestApp({ rpc });
});
afterAll(async () => {
  await withChain?.close();
  await withoutFaucet?.close();
  await local?.stop();
  await rm(dataDir, { recursive: true, force: true });
});

describe('with the local chain', () => {
  it('reports the chain reachable in health', async () => {
    const res = await request(withChain.app).get('/api/v1/health');
    expect(res.body).toEqual({
      status: 'ok',
      database: { ok: true, state: 'ok' },
      chain: { ok: true, state: 'ok' },
    });
  });

  it('funds a new wallet with SOL and STRM from the faucet', async () => {
    const wallet = Keypair.generate().publicKey;
    const res = await request(withChain.app)
      .post('/api/v1/dev/faucet')
      .send({ wallet: wallet.toBase58(), strm: 25_000 });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ wallet: wallet.toBase58(), sol: 2, strm: 25_000 });
    expect(await local.connection.getBalance(wallet)).toBe(2_000_000_000);
    expect(await tokenBalance(local.connection, wallet, new PublicKey(local.info.mint))).toBe(25_000);
  });

  it('refuses bad faucet requests', async () => {
    const bad = await request(withChain.app).post('/api/v1/dev/faucet').send({ wallet: 'nope' });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ error: 'validation_error', message: 'Invalid wallet address' });
    const greedy = await request(withChain.app)
      .post('/api/v1/dev/faucet')
      .send({ wallet: Keypair.generate().publicKey.toBase58(), strm: 10_000_000 });
    expect(greedy.status).toBe(400);
  });

  it('refuses to fund a program, a sysvar or an off-curve address (400, not a 500 from the chain)', async () => {
    const offCurve = PublicKey.findProgramAddressSync([Buffer.from('strm')], SystemProgram.programId)[0];
    for (const address of [SystemProgram.programId, SYSVAR_CLOCK_PUBKEY, offCurve]) {
      const res = await request(withChain.app)
        .post('/api/v1/dev/faucet')
        .send({ wallet: address.toBase58() });
      expect(res.status, address.toBase58()).toBe(400);
      expect(res.body).toEqual({
        error: 'not_a_wallet',
        message: 'The faucet funds wallets only, not programs or system accounts',
      });
    }
  });

  it('has no faucet when the chain is not the local one', async () => {
    const res = await request(withoutFaucet.app)
      .post('/api/v1/dev/faucet')
      .send({ wallet: Keypair.generate().publicKey.toBase58() });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: 'not_found', message: 'The faucet exists only on the local chain' });
    // Not there whatever is sent: no validation or parse error to probe it with, no other method.
    const probes = [
      request(withoutFaucet.app).post('/api/v1/dev/faucet').send({ wallet: 'nope' }),
      request(withoutFaucet.app)
        .post('/api/v1/dev/faucet')
        .set('Content-Type', 'application/json')
        .send('{nope'),
      request(withoutFaucet.app).get('/api/v1/dev/faucet'),
    ];
    for (const probe of probes) expect((await probe).status).toBe(404);
  });
});
