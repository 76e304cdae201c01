// Plain JSON-RPC to the cluster through web3.js's own request path (the same endpoint, fetch, deadline and
// metrics as every other RPC call), its answers checked by zod. Where the API reads a lot (the engine's
// re-reads of streamer records, a rush of collects' proofs), web3.js's response schemas cost too much: their
// superstruct validation builds an Error for every union branch it tries (docs/benchmarks.md).
import type { Connection } from '@solana/web3.js';
import { z } from 'zod';

/** web3.js's internal JSON-RPC calls: one request, or several in one HTTP request. */
export interface JsonRpc {
  _rpcRequest(method: string, args: unknown[]): Promise<unknown>;
  _rpcBatchRequest(requests: Array<{ methodName: string; args: unknown[] }>): Promise<unknown[]>;
}

export const jsonRpcOf = (connection: Connection): JsonRpc => connection as unknown as JsonRpc;

/** A JSON-RPC answer: its `result` as `result` describes it, or the node's error. */
export function rpcAnswer<T extends z.ZodType>(result: T) {
  return z.union([
    z.object({ result }),
    z.object({ error: z.object({ code: z.number(), message: z.string() }) }),
  ]);
}
