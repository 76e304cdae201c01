// The re-read of many streamer records (every checkpoint's, every take-over's) against an RPC node that
// answers badly: a clear error, never a record made up from a malformed answer.
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import { Connection, Keypair } from '@solana/web3.js';
import { miningProgram } from '@strm/mining-client';
import { afterEach, describe, expect, it } from 'vitest';
import { createLogger } from '../logger.ts';
import { chainStreamerRecords } from './streamer-records.ts';

let server: Server | undefined;
afterEach(() => server?.close());

/** An RPC node answering every request with `answer(params)`. */
async function rpcAnswering(answer: (params: unknown[]) => unknown): Promise<string> {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => {
      body += c;
    });
    req.on('end', () => {
      const { id, params } = JSON.parse(body) as { id: unknown; params: unknown[] };
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ jsonrpc: '2.0', id, ...(answer(params) as object) }));
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return `http://127.0.0.1:${(server.address() as { port: number }).port}`;
}

function records(url: string) {
  return chainStreamerRecords(miningProgram(new Connection(url, 'confirmed')), {
    wsUrl: url.replace('http', 'ws'),
    logger: createLogger('silent'),
    now: () => Date.now(),
  });
}

const wallets = [Keypair.generate(), Keypair.generate()].map((k) => k.publicKey.toBase58());

describe('reading many streamer records', () => {
  it('answers null for accounts that do not exist, in the order asked', async () => {
    const url = await rpcAnswering(() => ({ result: { context: { slot: 1 }, value: [null, null] } }));
    const read = await records(url).readMany(wallets);
    expect([...read.entries()]).toEqual([
      [wallets[0], null],
      [wallets[1], null],
    ]);
  });

  it('rejects an answer whose accounts are malformed', async () => {
    const url = await rpcAnswering(() => ({
      result: { context: { slot: 1 }, value: [{ lamports: 'many', data: ['', 'base64'] }, null] },
    }));
    await expect(records(url).readMany(wallets)).rejects.toThrow(/lamports/);
  });

  it('rejects an answer with fewer accounts than asked', async () => {
    const url = await rpcAnswering(() => ({ result: { context: { slot: 1 }, value: [null] } }));
    await expect(records(url).readMany(wallets)).rejects.toThrow('answered 1 accounts for 2');
  });

  it("rejects with the node's error", async () => {
    const url = await rpcAnswering(() => ({ error: { code: -32005, message: 'Node is behind' } }));
    await expect(records(url).readMany(wallets)).rejects.toThrow('-32005 Node is behind');
  });

  it('refuses an answer from a slot older than one already read (a restarted validator replaying)', async () => {
    const slots = [10, 5, 12];
    const url = await rpcAnswering(() => ({
      result: { context: { slot: slots.shift() }, value: [null, null] },
    }));
    const watch = records(url);
    expect((await watch.readMany(wallets)).size).toBe(2);
    await expect(watch.readMany(wallets)).rejects.toThrow('records read at slot 5, behind 10 seen');
    expect((await watch.readMany(wallets)).size).toBe(2);
  });
});
