import { Connection } from '@solana/web3.js';
import type { Metrics } from './observability/metrics.ts';

/** What the API needs of a Solana cluster; the same for the local chain, devnet or mainnet. */
export interface Chain {
  rpcUrl: string;
  wsUrl: string;
  connection: Connection;
  ping(): Promise<void>;
}

export function defaultWsUrl(rpcUrl: string): string {
  const url = new URL(rpcUrl);
  url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
  // Solana's convention: PubSub listens on the RPC port + 1.
  if (url.port) url.port = String(Number(url.port) + 1);
  return url.toString();
}

/** The JSON-RPC method of a request body (`batch` for a batch), for the latency histogram. */
function rpcMethod(body: unknown): string {
  try {
    const parsed: unknown = JSON.parse(String(body));
    if (Array.isArray(parsed)) return 'batch';
    const method = (parsed as { method?: unknown }).method;
    return typeof method === 'string' && /^\w{1,64}$/.test(method) ? method : 'unknown';
  } catch {
    return 'unknown';
  }
}

/** fetch, timing every RPC request into `strm_solana_rpc_duration_seconds`. */
function timedFetch(metrics: Metrics): typeof fetch {
  return async (input, init) => {
    const end = metrics.rpcDuration.startTimer({ method: rpcMethod(init?.body) });
    try {
      const res = await fetch(input, init);
      end({ outcome: res.ok ? 'ok' : `http_${res.status}` });
      return res;
    } catch (err) {
      end({ outcome: 'unreachable' });
      throw err;
    }
  };
}

export function createChain(rpcUrl: string, wsUrl = defaultWsUrl(rpcUrl), metrics?: Metrics): Chain {
  const connection = new Connection(rpcUrl, {
    commitment: 'confirmed',
    wsEndpoint: wsUrl,
    fetch: metrics && timedFetch(metrics),
  });
  return {
    rpcUrl,
    wsUrl,
    connection,
    async ping() {
      await connection.getVersion();
    },
  };
}
