import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePortPair } from '@strm/testing';
import { type LocalChain, startLocalChain } from '../ts/index.ts';

export { freePortPair };

export async function startTestChain(): Promise<LocalChain & { dataDir: string }> {
  const dataDir = await mkdtemp(join(tmpdir(), 'strm-chain-'));
  // The chain's suites check the program as clients see it: STRM_TEST_CHAIN_PROGRAM picks which one runs.
  const chain = await startLocalChain({
    dataDir,
    rpcPort: await freePortPair(),
    reset: true,
    programSuite: true,
  });
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
  headers: Record<string, string> = {},
): Promise<Record<string, unknown>> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...headers },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  return (await res.json()) as Record<string, unknown>;
}
