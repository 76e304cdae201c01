// The faucet's confirmations ride through a failing status check: web3.js 1.x's confirmTransaction asks
// getSignatureStatuses once its signature subscription is up, inside a promise nobody awaits, so an RPC
// timeout there became an unhandled rejection in the API (26 of them while bench:live prepared streamers on a
// saturated machine). The product patches web3.js (patches/@solana__web3.js@1.98.4.patch): a failed check is
// left to the subscription and the block-height expiry, as a null status already was.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { getAccount, getAssociatedTokenAddressSync } from '@solana/spl-token';
import { Connection, Keypair, LAMPORTS_PER_SOL, PublicKey } from '@solana/web3.js';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { fundWallet, type LocalChain } from '../ts/index.ts';
import { startTestChain } from './support.ts';

let chain: LocalChain & { dataDir: string };
let proxy: Server;
let proxyUrl: string;
let statusChecksFailed = 0;

/** The chain's RPC, except that every getSignatureStatuses call fails as a timed-out node's does. */
async function startFlakyStatusProxy(target: string): Promise<Server> {
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString();
    if ((JSON.parse(body) as { method?: string }).method === 'getSignatureStatuses') {
      statusChecksFailed += 1;
      res.writeHead(503, { 'Content-Type': 'text/plain' }).end('upstream timed out');
      return;
    }
    const answer = await fetch(target, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body,
    });
    res.writeHead(answer.status, { 'Content-Type': 'application/json' }).end(await answer.text());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return server;
}

beforeAll(async () => {
  chain = await startTestChain();
  proxy = await startFlakyStatusProxy(chain.rpcUrl);
  proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => proxy?.close(resolve));
  await chain?.stop();
});

it('funds a wallet through an RPC whose status checks fail, confirmed by the subscription, with no unhandled rejection', async () => {
  const unhandled: unknown[] = [];
  const record = (reason: unknown) => unhandled.push(reason);
  process.on('unhandledRejection', record);
  try {
    const connection = new Connection(proxyUrl, { commitment: 'confirmed', wsEndpoint: chain.wsUrl });
    const wallet = Keypair.generate().publicKey;
    const result = await fundWallet(connection, chain.info, wallet, { sol: 1, strm: 25 });

    expect(statusChecksFailed).toBeGreaterThan(0);
    expect(await chain.connection.getBalance(wallet)).toBe(LAMPORTS_PER_SOL);
    const holdings = getAssociatedTokenAddressSync(new PublicKey(chain.info.mint), wallet);
    expect(result.tokenAccount).toBe(holdings.toBase58());
    expect((await getAccount(chain.connection, holdings)).amount).toBe(25_000_000n);
    // A rejection nobody handled is reported on a later turn of the event loop: give it that turn.
    await new Promise((resolve) => setImmediate(resolve));
    expect(unhandled.map(String)).toEqual([]);
  } finally {
    process.off('unhandledRejection', record);
  }
});
