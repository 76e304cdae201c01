import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Connection, type PublicKey } from '@solana/web3.js';
import { closeConnectionSocket } from '@strm/mining-client';
import {
  type ValidatorKind,
  agaveBinaryPath,
  agaveProgramArgs,
  buildAgaveValidator,
  validatorKind,
} from './agave.ts';
import { type AccountState, readCheatToken, setAccount } from './cheats.ts';
import { type LocalChainInfo, ensureGenesis, upgradeAuthority } from './genesis.ts';
import { type ChainProgram, programArgs } from './sbf.ts';

export type { LocalChainInfo } from './genesis.ts';
export { type AccountState, CHEAT_TOKEN_HEADER, readCheatToken, setAccount } from './cheats.ts';
export { fundWallet } from './faucet.ts';
export { readKeypair } from './keys.ts';
export type { ChainProgram } from './sbf.ts';
export { type ValidatorKind, validatorKind } from './agave.ts';
export { chainProgramChoice } from './sbf.ts';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));

export interface LocalChainOptions {
  /** Ledger, keypairs and chain.json (default: <repo>/.data/chain). */
  dataDir?: string;
  /** JSON-RPC port; PubSub is the next one (default 8899). */
  rpcPort?: number;
  host?: string;
  /** Start from an empty ledger (keypairs and so the mint's address stay). */
  reset?: boolean;
  /** Run `cargo build` first (default); a caller that just built can skip the up-to-date check. */
  build?: boolean;
  /** Memory bounds (the chain's defaults otherwise: 50,000 transactions kept, 4096 queued events, 10 s). */
  limits?: { maxTransactions?: number; pubsubQueue?: number; pubsubSendTimeoutMs?: number };
  onLog?: (line: string) => void;
  /**
   * The mining program it runs: 'native' (default), 'sbf' (target/deploy/mining.so in the SBF engine) or
   * 'auto' (the SBF build when it is set up); STRM_LOCAL_CHAIN_PROGRAM overrides it (chain/ts/sbf.ts).
   */
  program?: ChainProgram;
  /** A suite that checks the program itself: STRM_TEST_CHAIN_PROGRAM, when set, chooses first. */
  programSuite?: boolean;
  /** Which validator runs (LOCAL_CHAIN otherwise): a test comparing the two starts one of each. */
  validator?: ValidatorKind;
}

export interface LocalChain {
  rpcUrl: string;
  wsUrl: string;
  info: LocalChainInfo;
  /** Which mining program runs: its SBF build or the native one (the chain's ready line says). */
  program: 'SBF' | 'native';
  /** The project's own chain or agave's test validator (LOCAL_CHAIN), for tests of what only one has. */
  validator: 'local' | 'agave';
  connection: Connection;
  /** This run's token for the cheat codes (also in <data dir>/cheat-token). */
  cheatToken: string;
  /** The `strm_setAccount` cheat code: overwrites a state account (the local chain's only: agave has none). */
  setAccount(address: PublicKey | string, account: AccountState): Promise<void>;
  /** Settles with the exit code when the process is gone (stopped, or killed: a supervisor restarts it). */
  exited: Promise<number | null>;
  /** The validator's process id (benchmarks read its memory and CPU time). */
  pid: number | undefined;
  stop(): Promise<void>;
}

/** Refuses to run a development chain (with its faucet keys and cheat codes) in production. */
export function assertNotProduction(): void {
  if (process.env.NODE_ENV === 'production')
    throw new Error(
      'The local chain is for development and tests only and does not run with NODE_ENV=production; ' +
        'set SOLANA_RPC_URL (and SOLANA_WS_URL) to a real cluster',
    );
}

/**
 * The chain's executable: STRM_LOCAL_CHAIN_BINARY when set (a prebuilt one, which is then never rebuilt),
 * else this clone's own copy of its build, <repo>/target/local-chain/strm-local-chain, that
 * scripts/cargo.mjs makes after each build (clones and worktrees share cargo's target dir, where the file
 * cargo links is whichever clone built last). With LOCAL_CHAIN=agave, agave's validator (chain/ts/agave.ts).
 */
export function binaryPath(validator: ValidatorKind = validatorKind()): string {
  if (validator === 'agave') return agaveBinaryPath();
  if (process.env.STRM_LOCAL_CHAIN_BINARY) return process.env.STRM_LOCAL_CHAIN_BINARY;
  return join(repoRoot, 'target', 'local-chain', 'strm-local-chain');
}

/**
 * Builds the chain (a no-op when it is up to date) with the project's shared cargo target dir, and copies
 * this clone's build to binaryPath().
 */
export function buildLocalChain(): void {
  if (process.env.STRM_LOCAL_CHAIN_BINARY) return;
  const result = spawnSync(
    process.execPath,
    [join(repoRoot, 'scripts', 'cargo.mjs'), 'build', '-q', '-p', 'strm-local-chain'],
    {
      cwd: repoRoot,
      stdio: ['ignore', 'inherit', 'inherit'],
    },
  );
  if (result.status !== 0)
    throw new Error('building the local chain (cargo build -p strm-local-chain) failed');
}

/** Builds if needed, starts the chain, waits until it answers, and makes sure genesis is in place. */
export async function startLocalChain(options: LocalChainOptions = {}): Promise<LocalChain> {
  assertNotProduction();
  const dataDir = resolve(options.dataDir ?? join(repoRoot, '.data', 'chain'));
  const host = options.host ?? '127.0.0.1';
  const rpcPort = options.rpcPort ?? 8899;
  mkdirSync(dataDir, { recursive: true });
  const validator = options.validator ?? validatorKind();
  let binary: string;
  let program: string[];
  if (validator === 'agave') {
    // agave's validator always runs the SBF build: it has no native programs.
    if (options.build !== false && !process.env.STRM_AGAVE_VALIDATOR_BINARY) buildAgaveValidator(repoRoot);
    binary = binaryPath('agave');
    program = agaveProgramArgs(repoRoot);
  } else {
    if (options.build !== false) buildLocalChain();
    binary = binaryPath('local');
    program = programArgs(repoRoot, options.program, options.build !== false, options.programSuite);
  }

  // The chain stops when our end of its stdin closes, so it never outlives this process.
  const args = [
    '--host',
    host,
    '--rpc-port',
    String(rpcPort),
    '--data-dir',
    dataDir,
    '--exit-on-stdin-close',
    // As `anchor deploy` would: genesis's authority is the program's upgrade authority, so it (and only
    // it) initialises the config.
    '--upgrade-authority',
    upgradeAuthority(dataDir).toBase58(),
  ];
  args.push(...program);
  if (options.reset) args.push('--reset');
  const { maxTransactions, pubsubQueue, pubsubSendTimeoutMs } = options.limits ?? {};
  if (maxTransactions !== undefined) args.push('--max-transactions', String(maxTransactions));
  if (pubsubQueue !== undefined) args.push('--pubsub-queue', String(pubsubQueue));
  if (pubsubSendTimeoutMs !== undefined) args.push('--pubsub-send-timeout-ms', String(pubsubSendTimeoutMs));
  const child: ChildProcess = spawn(binary, args, {
    stdio: ['pipe', 'pipe', 'pipe'],
    // Its own process group: a terminal's Ctrl-C reaches the process that started it, which stops the chain
    // when it is done with it (after the API's last checkpoint). It still never outlives that process: it
    // exits when its stdin closes, however that process ended.
    detached: true,
    env: { ...process.env, RUST_LOG: process.env.RUST_LOG ?? 'error' },
  });
  let output = '';
  const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
  await new Promise<void>((ready, fail) => {
    const timer = setTimeout(() => fail(new Error(`the local chain did not start:\n${output}`)), 60_000);
    const onData = (chunk: Buffer) => {
      const text = chunk.toString();
      output += text;
      for (const line of text.split('\n')) if (line.trim()) options.onLog?.(line);
      if (/^strm-(local-chain|agave-validator) ready /m.test(output)) {
        clearTimeout(timer);
        ready();
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    void exited.then((code) => {
      clearTimeout(timer);
      fail(new Error(`the local chain exited (${code}) before it was ready:\n${output}`));
    });
  });

  const rpcUrl = `http://${host}:${rpcPort}`;
  const wsUrl = `ws://${host}:${rpcPort + 1}`;
  const connection = new Connection(rpcUrl, { commitment: 'confirmed', wsEndpoint: wsUrl });
  const stop = async () => {
    if (child.exitCode === null) {
      // Clients fire requests after a confirmation resolves (web3.js checks the signature status once
      // more); let those land before the chain goes away under them.
      await new Promise((settled) => setTimeout(settled, 250));
      closeConnectionSocket(connection);
      child.stdin?.end();
      child.kill('SIGTERM');
    }
    await exited;
  };
  try {
    const cheatToken = validator === 'agave' ? '' : readCheatToken(dataDir);
    const info = await ensureGenesis(connection, dataDir, { rpcUrl, wsUrl });
    return {
      rpcUrl,
      wsUrl,
      info,
      program: /ready program=SBF /.test(output) ? 'SBF' : 'native',
      validator,
      connection,
      cheatToken,
      setAccount: (address, account) =>
        validator === 'agave'
          ? Promise.reject(
              new Error('strm_setAccount is the local chain’s cheat code; agave’s validator has none'),
            )
          : setAccount(rpcUrl, cheatToken, address, account),
      exited,
      pid: child.pid,
      stop,
    };
  } catch (err) {
    await stop();
    throw err;
  }
}
