// The RPC client: the API's JSON-RPC connection to a Solana cluster (the local chain, devnet or mainnet),
// bounded in time, timed into the metrics, and telling whether the node answers.
import { Connection } from '@solana/web3.js';
import { closeConnectionSocket } from '@strm/mining-client';
import type { Metrics } from '../observability/metrics.ts';

/** What the API needs of a Solana cluster; the same for the local chain, devnet or mainnet. */
export interface Rpc {
  rpcUrl: string;
  wsUrl: string;
  connection: Connection;
  /** getVersion within `timeoutMs`; rejects when the RPC does not answer in time. */
  ping(timeoutMs?: number): Promise<void>;
  /**
   * The RPC failed to answer (refused, reset or timed out) and has not answered since. Cleared by the next
   * answer.
   */
  readonly unreachable: boolean;
  /**
   * Whether actions that need the chain should go ahead: true while it answers; once it did not, only when
   * a ping answers within `timeoutMs` (so an action during an outage is refused within about a second
   * instead of waiting out RPC_TIMEOUT_MS, and the first action after it comes back goes through).
   */
  available(timeoutMs?: number): Promise<boolean>;
  /**
   * Closes web3.js's WebSocket (opened by a confirmation's signature subscription, e.g. the dev faucet's) with
   * a normal close, which its client does not reconnect; at shutdown, before the local chain stops.
   */
  close(): void;
}

/** Every JSON-RPC request gives up after this long (a stalled node must not hold a request forever). */
export const RPC_TIMEOUT_MS = 5000;
/** How long an action waits for the chain to answer once it has stopped answering. */
export const RPC_PROBE_TIMEOUT_MS = 1000;

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

interface Reachability {
  /** When the RPC last failed to answer, unless it answered since. */
  failedAt: number | undefined;
}

/**
 * fetch bounded by RPC_TIMEOUT_MS, recording whether the node answers and timing every request into
 * `strm_solana_rpc_duration_seconds`.
 */
function guardedFetch(state: Reachability, metrics: Metrics | undefined): typeof fetch {
  return async (input, init) => {
    const end = metrics?.rpcDuration.startTimer({ method: rpcMethod(init?.body) });
    const timeout = AbortSignal.timeout(RPC_TIMEOUT_MS);
    const signal = init?.signal ? AbortSignal.any([init.signal, timeout]) : timeout;
    try {
      const res = await fetch(input, { ...init, signal });
      state.failedAt = undefined;
      end?.({ outcome: res.ok ? 'ok' : `http_${res.status}` });
      return res;
    } catch (err) {
      state.failedAt = Date.now();
      end?.({ outcome: timeout.aborted ? 'timeout' : 'unreachable' });
      throw err;
    }
  };
}

export function createRpc(rpcUrl: string, wsUrl = defaultWsUrl(rpcUrl), metrics?: Metrics): Rpc {
  const state: Reachability = { failedAt: undefined };
  const connection = new Connection(rpcUrl, {
    commitment: 'confirmed',
    wsEndpoint: wsUrl,
    fetch: guardedFetch(state, metrics),
  });
  return {
    rpcUrl,
    wsUrl,
    connection,
    close: () => closeConnectionSocket(connection),
    async ping(timeoutMs = RPC_TIMEOUT_MS) {
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => {
          state.failedAt = Date.now();
          reject(new Error(`the Solana RPC did not answer within ${timeoutMs} ms`));
        }, timeoutMs);
      });
      try {
        await Promise.race([connection.getVersion(), timeout]);
      } finally {
        clearTimeout(timer);
      }
    },
    get unreachable() {
      return state.failedAt !== undefined;
    },
    async available(timeoutMs = RPC_PROBE_TIMEOUT_MS) {
      if (state.failedAt === undefined) return true;
      return this.ping(timeoutMs).then(
        () => true,
        () => false,
      );
    },
  };
}
