import type { Config } from './config.ts';
import type { Logger } from './logger.ts';

export interface RunningChain {
  rpcUrl: string;
  wsUrl: string | undefined;
  stop(): Promise<void>;
}

/** SOLANA_RPC_URL when set; otherwise the project's local chain on 127.0.0.1:8899. */
export async function startChain(config: Config, logger: Logger): Promise<RunningChain> {
  if (config.solanaRpcUrl) {
    return { rpcUrl: config.solanaRpcUrl, wsUrl: config.solanaWsUrl, stop: async () => {} };
  }
  logger.warn(
    'SOLANA_RPC_URL is not set and the local chain is not available yet: the chain reports unreachable',
  );
  return { rpcUrl: 'http://127.0.0.1:8899', wsUrl: undefined, stop: async () => {} };
}
