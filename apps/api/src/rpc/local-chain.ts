// Which Solana cluster the API uses, and the local chain (strm-local-chain, through @strm/local-chain)
// launched and supervised here when no other is set.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { LocalChainInfo } from '@strm/local-chain';
import type { Config } from '../config.ts';
import type { Logger } from '../logger.ts';
import type { Metrics } from '../observability/metrics.ts';
import { type Supervision, Supervisor } from '../supervisor.ts';

export interface RunningChain {
  rpcUrl: string;
  wsUrl: string | undefined;
  /** Only for the project's local chain: its mint, treasury and keypairs (chain.json). */
  local: LocalChainInfo | undefined;
  /** Which mining program the local chain runs (absent for a chain this process did not start). */
  program?: 'SBF' | 'native';
  /** The local chain's supervision (restarted when it dies); absent with SOLANA_RPC_URL. */
  supervision?: Supervision;
  stop(): Promise<void>;
}

export interface StartChainOptions {
  metrics?: Metrics;
  /** Told when the local chain was started again after it died. */
  onRestarted?: (restarts: number) => void;
}

/** The local chain's launcher is development tooling: loaded only in local mode, absent from the image. */
async function loadLauncher(): Promise<typeof import('@strm/local-chain')> {
  try {
    return await import('@strm/local-chain');
  } catch (err) {
    const code = (err as { code?: string }).code;
    if (code === 'ERR_MODULE_NOT_FOUND' || code === 'ERR_UNKNOWN_FILE_EXTENSION') {
      throw new Error(
        'the local chain runs only from the repository (pnpm start); set SOLANA_RPC_URL to use a cluster',
      );
    }
    throw err;
  }
}

/**
 * SOLANA_RPC_URL when set; else the local chain another process runs (LOCAL_CHAIN_DIR, several API
 * processes on one chain); otherwise the project's local chain, started here (state in DATA_DIR/chain) and
 * started again, on the same ports and ledger, whenever it dies.
 */
export async function startChain(
  config: Config,
  logger: Logger,
  options: StartChainOptions = {},
): Promise<RunningChain> {
  if (config.solanaRpcUrl) {
    return { rpcUrl: config.solanaRpcUrl, wsUrl: config.solanaWsUrl, local: undefined, stop: async () => {} };
  }
  if (config.localChainDir) {
    const info = JSON.parse(readFileSync(join(config.localChainDir, 'chain.json'), 'utf8')) as LocalChainInfo;
    logger.info({ rpc: info.rpcUrl, mint: info.mint }, 'using the local chain at LOCAL_CHAIN_DIR');
    return { rpcUrl: info.rpcUrl, wsUrl: info.wsUrl, local: info, stop: async () => {} };
  }
  const { startLocalChain } = await loadLauncher();
  let build = config.localChainBuild;
  const supervisor = new Supervisor(
    async () => {
      const started = await startLocalChain({
        dataDir: join(config.dataDir, 'chain'),
        rpcPort: config.localChainPort,
        host: config.localChainHost,
        build,
        // The SBF build of the program when it is set up (./run sbf rust, ./run sbf), else the native one.
        program: 'auto',
        onLog: (line) => logger.debug({ chain: line }),
      });
      // Built once; a restart runs the same binary.
      build = false;
      return started;
    },
    { name: 'local chain', logger, metrics: options.metrics, onRestarted: options.onRestarted },
  );
  const localChain = await supervisor.start();
  // Listening on every interface (in a container) is still reached by clients on loopback.
  const reachable = (url: string) => url.replace('//0.0.0.0:', '//127.0.0.1:');
  logger.info(
    { rpc: localChain.rpcUrl, mint: localChain.info.mint, program: localChain.program },
    `local chain started (mining program: ${localChain.program === 'SBF' ? 'SBF build, target/deploy/mining.so' : 'native'})`,
  );
  return {
    rpcUrl: reachable(localChain.rpcUrl),
    wsUrl: reachable(localChain.wsUrl),
    local: localChain.info,
    program: localChain.program,
    supervision: supervisor,
    stop: () => supervisor.stop(),
  };
}
