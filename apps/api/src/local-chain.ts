import { join } from 'node:path';
import { type ChainInfo, startLocalChain } from '@strm/local-chain';
import type { Config } from './config.ts';
import type { Logger } from './logger.ts';

export interface RunningChain {
  rpcUrl: string;
  wsUrl: string | undefined;
  /** Only for the project's local chain: its mint, treasury and keypairs (chain.json). */
  local: ChainInfo | undefined;
  stop(): Promise<void>;
}

/** SOLANA_RPC_URL when set; otherwise the project's local chain, started here (state in DATA_DIR/chain). */
export async function startChain(config: Config, logger: Logger): Promise<RunningChain> {
  if (config.solanaRpcUrl) {
    return { rpcUrl: config.solanaRpcUrl, wsUrl: config.solanaWsUrl, local: undefined, stop: async () => {} };
  }
  const chain = await startLocalChain({
    dataDir: join(config.dataDir, 'chain'),
    rpcPort: config.localChainPort,
    onLog: (line) => logger.debug({ chain: line }),
  });
  logger.info({ rpc: chain.rpcUrl, mint: chain.info.mint }, 'local chain started');
  return { rpcUrl: chain.rpcUrl, wsUrl: chain.wsUrl, local: chain.info, stop: chain.stop };
}
