import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type LocalChain, startLocalChain } from '../ts/index.ts';

/** Two consecutive free ports (RPC and PubSub). */
export async function freePortPair(): Promise<number> {
  for (;;) {
    const port = await new Promise<number>((resolve, reject) => {
      const server = createServer();
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => {
        const { port } = server.address() as { port: number };
        server.close(() => resolve(port));
      });
    });
    const next = await new Promise<boolean>((resolve) => {
      const server = createServer();
      server.once('error', () => resolve(false));
      server.listen(port + 1, '127.0.0.1', () => server.close(() => resolve(true)));
    });
    if (next && port < 65_000) return port;
  }
}

export async function startTestChain(): Promise<LocalChain & { dataDir: string }> {
  const dataDir = await mkdtemp(join(tmpdir(), 'strm-chain-'));
  const chain = await startLocalChain({ dataDir, rpcPort: await freePortPair(), reset: true });
  return {
    ...chain,
    dataDir,
    async stop() {
      await chain.stop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** A JSON-RPC call with nothing but fetch, to check the wire format itself. */
export async function rpc(
  url: string,
  method: string,
  params: unknown[] = [],
): Promise<Record<string, unknown>> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  return (await res.json()) as Record<string, unknown>;
}
