// What keeps the local chain safe to leave running on a developer's machine: the cheat codes only for a
// caller that read this run's token, and bounded memory whatever clients send or fail to read.
import { readFileSync, statSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Keypair, LAMPORTS_PER_SOL, PublicKey, SystemProgram, Transaction } from '@solana/web3.js';
import { getBase58Decoder } from '@solana/kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHEAT_TOKEN_HEADER, type LocalChain, startLocalChain } from '../ts/index.ts';
import { openPubSub, type PubSubClient } from './pubsub-client.ts';
import { freePortPair } from './support.ts';

const MAX_TRANSACTIONS = 40;

let chain: LocalChain;
let dataDir: string;

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'strm-chain-limits-'));
  chain = await startLocalChain({
    dataDir,
    rpcPort: await freePortPair(),
    reset: true,
    limits: { maxTransactions: MAX_TRANSACTIONS, pubsubQueue: 8 },
    // On mining.so where STRM_TEST_CHAIN_PROGRAM asks for it (CI), as the chain's other suites.
    programSuite: true,
  });
});
afterAll(async () => {
  await chain?.stop();
  await rm(dataDir, { recursive: true, force: true });
});

/** A raw HTTP POST (node:http lets a test send the Host header a rebinding page would). */
function post(url: string, body: string, headers: Record<string, string>) {
  return new Promise<{ status: number; json: unknown }>((resolve, reject) => {
    const req = request(url, { method: 'POST', headers }, (res) => {
      let text = '';
      res.on('data', (chunk: Buffer) => {
        text += chunk.toString();
      });
      res.on('end', () => {
        let json: unknown = null;
        try {
          json = JSON.parse(text);
        } catch {}
        resolve({ status: res.statusCode ?? 0, json });
      });
    });
    req.once('error', reject);
    req.end(body);
  });
}

describe('the cheat codes', () => {
  it('need this run’s token, a JSON request and a loopback Host', async () => {
    const target = Keypair.generate().publicKey;
    const body = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'strm_setAccount',
      params: [target.toBase58(), { lamports: 123_456_789, owner: SystemProgram.programId.toBase58() }],
    });
    const json = { 'Content-Type': 'application/json' };
    const token = { [CHEAT_TOKEN_HEADER]: chain.cheatToken };
    const refused = {
      status: 200,
      json: { error: { code: -32600, message: expect.stringContaining('cheat-token') } },
    };

    expect(await post(chain.rpcUrl, body, json)).toMatchObject(refused);
    expect(await post(chain.rpcUrl, body, { ...json, [CHEAT_TOKEN_HEADER]: 'f'.repeat(64) })).toMatchObject(
      refused,
    );
    // A text/plain post is what any web page may send anywhere without a CORS preflight.
    expect((await post(chain.rpcUrl, body, { ...token, 'Content-Type': 'text/plain' })).status).toBe(415);
    // DNS rebinding: a page whose own name now resolves to 127.0.0.1 still sends its name as Host.
    const port = new URL(chain.rpcUrl).port;
    expect(
      await post(chain.rpcUrl, body, { ...json, ...token, Host: `attacker.example:${port}` }),
    ).toMatchObject(refused);
    expect(await chain.connection.getBalance(target)).toBe(0);

    expect(await post(chain.rpcUrl, body, { ...json, ...token })).toMatchObject({ json: { result: null } });
    expect(await chain.connection.getBalance(target)).toBe(123_456_789);
    expect(await post(chain.rpcUrl, body, { ...json, ...token, Host: `localhost:${port}` })).toMatchObject({
      json: { result: null },
    });

    // The token is this run's, readable by the developer's account only.
    expect(readFileSync(join(dataDir, 'cheat-token'), 'utf8')).toBe(chain.cheatToken);
    expect(chain.cheatToken).toMatch(/^[0-9a-f]{64}$/);
    expect(statSync(join(dataDir, 'cheat-token')).mode & 0o777).toBe(0o600);
  });
});

describe('bounded resources', () => {
  it('refuses a JSON-RPC batch over 100 requests whole, and answers one of 100', async () => {
    const batch = (n: number) =>
      JSON.stringify(Array.from({ length: n }, (_, id) => ({ jsonrpc: '2.0', id, method: 'getSlot' })));
    const json = { 'Content-Type': 'application/json' };
    expect(await post(chain.rpcUrl, batch(101), json)).toMatchObject({
      json: { error: { code: -32600, message: expect.stringContaining('limit of 100') } },
    });
    const answered = await post(chain.rpcUrl, batch(100), json);
    expect(answered.json).toHaveLength(100);
  });

  it('caps the subscriptions (so the addresses watched) of one PubSub connection at 1024', async () => {
    const client = await openPubSub(chain.wsUrl);
    try {
      const subscribe = (id: number) =>
        client.send({
          jsonrpc: '2.0',
          id,
          method: 'accountSubscribe',
          params: [PublicKey.unique().toBase58(), { encoding: 'base64' }],
        });
      for (let id = 0; id < 1025; id++) subscribe(id);
      const replies = [];
      for (let i = 0; i < 1025; i++) replies.push(await client.next());
      expect(replies.slice(0, 1024).every((r) => typeof r.result === 'number')).toBe(true);
      expect(replies[1024]).toMatchObject({
        id: 1024,
        error: { code: -32603, message: expect.stringContaining('1024') },
      });

      // Unsubscribing makes room again.
      client.send({ jsonrpc: '2.0', id: 2000, method: 'accountUnsubscribe', params: [replies[0]!.result] });
      expect(await client.next()).toMatchObject({ id: 2000, result: true });
      subscribe(2001);
      expect(await client.next()).toMatchObject({ id: 2001, result: expect.any(Number) });
    } finally {
      client.close();
    }
  });

  it(`keeps the newest ${MAX_TRANSACTIONS} transactions in memory, dropping the oldest`, async () => {
    const countBefore = await chain.connection.getTransactionCount();
    const signatures: string[] = [];
    for (let i = 0; i <= MAX_TRANSACTIONS; i++)
      signatures.push(await chain.connection.requestAirdrop(Keypair.generate().publicKey, LAMPORTS_PER_SOL));
    const [oldest, newest] = [signatures[0]!, signatures.at(-1)!];
    expect(await chain.connection.getTransaction(oldest, { maxSupportedTransactionVersion: 0 })).toBeNull();
    expect((await chain.connection.getSignatureStatuses([oldest, newest])).value).toEqual([
      null,
      expect.objectContaining({ err: null }),
    ]);
    expect(
      await chain.connection.getTransaction(newest, { maxSupportedTransactionVersion: 0 }),
    ).not.toBeNull();
    // The count is of every transaction since the start, kept or not.
    expect(await chain.connection.getTransactionCount()).toBeGreaterThanOrEqual(
      countBefore + MAX_TRANSACTIONS + 1,
    );
  });
});

describe('a slow PubSub client', () => {
  /**
   * An account watched 40 times, so one change is 40 notifications of 1.3 MB: more than the socket buffers
   * (up to 32 MB here) take, so the server's sends back up when the client stops reading.
   */
  async function bigAccountWatcher(): Promise<{
    client: PubSubClient;
    change: (fill: number) => Promise<void>;
  }> {
    const big = Keypair.generate().publicKey;
    const change = (fill: number) =>
      chain.setAccount(big, {
        lamports: LAMPORTS_PER_SOL,
        data: new Uint8Array(1_000_000).fill(fill),
        owner: SystemProgram.programId,
      });
    await change(0);
    const client = await openPubSub(chain.wsUrl);
    for (let id = 0; id < 40; id++)
      client.send({
        jsonrpc: '2.0',
        id,
        method: 'accountSubscribe',
        params: [big.toBase58(), { encoding: 'base64' }],
      });
    for (let id = 0; id < 40; id++) expect(await client.next()).toMatchObject({ result: expect.any(Number) });
    return { client, change };
  }

  it('still gets the signature notification it subscribed to after falling behind', async () => {
    const payer = Keypair.generate();
    await chain.connection.requestAirdrop(payer.publicKey, LAMPORTS_PER_SOL);
    const transfer = new Transaction({
      feePayer: payer.publicKey,
      recentBlockhash: (await chain.connection.getLatestBlockhash()).blockhash,
    }).add(
      SystemProgram.transfer({
        fromPubkey: payer.publicKey,
        toPubkey: Keypair.generate().publicKey,
        lamports: LAMPORTS_PER_SOL / 10,
      }),
    );
    transfer.sign(payer);
    const signature = getBase58Decoder().decode(transfer.signature!);

    const { client, change } = await bigAccountWatcher();
    try {
      client.send({ jsonrpc: '2.0', id: 100, method: 'signatureSubscribe', params: [signature] });
      expect(await client.next()).toMatchObject({ id: 100, result: expect.any(Number) });
      client.pause();
      await change(1);
      // Far more events than the connection's queue of 8 while its sends back up, then the transfer.
      for (let i = 0; i < 8; i++)
        await chain.connection.requestAirdrop(Keypair.generate().publicKey, LAMPORTS_PER_SOL + i);
      await chain.connection.sendRawTransaction(transfer.serialize());
      client.resume();
      for (;;) {
        const message = await client.next();
        if (message.method !== 'signatureNotification') continue;
        expect(message).toMatchObject({ params: { result: { value: { err: null } } } });
        break;
      }
    } finally {
      client.close();
    }
  });
});
