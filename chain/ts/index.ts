import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Connection } from '@solana/web3.js';
import { type ChainInfo, ensureGenesis } from './genesis.ts';

export type { ChainInfo } from './genesis.ts';
export { fundWallet } from './faucet.ts';
export { readKeypair } from './keys.ts';

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
  onLog?: (line: string) => void;
}

export interface LocalChain {
  rpcUrl: string;
  wsUrl: string;
  info: ChainInfo;
  connection: Connection;
  stop(): Promise<void>;
}

export function binaryPath(): string {
  const target = process.env.CARGO_TARGET_DIR ?? join(homedir(), '.cache', 'strm-target');
  return join(target, 'debug', 'strm-local-chain');
}

/** Builds the chain (a no-op when it is up to date) with the project's shared cargo target dir. */
export function buildLocalChain(): void {
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
  const dataDir = resolve(options.dataDir ?? join(repoRoot, '.data', 'chain'));
  const host = options.host ?? '127.0.0.1';
  const rpcPort = options.rpcPort ?? 8899;
  mkdirSync(dataDir, { recursive: true });
  if (options.build !== false) buildLocalChain();

  // The chain stops when our end of its stdin closes, so it never outlives this process.
  const args = [
    '--host',
    host,
    '--rpc-port',
    String(rpcPort),
    '--data-dir',
    dataDir,
    '--exit-on-stdin-close',
  ];
  if (options.reset) args.push('--reset');
  const child: ChildProcess = spawn(binaryPath(), args, {
    stdio: ['pipe', 'pipe', 'pipe'],
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
      if (output.includes('strm-local-chain ready')) {
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
      child.stdin?.end();
      child.kill('SIGTERM');
    }
    await exited;
  };
  try {
    const info = await ensureGenesis(connection, dataDir, { rpcUrl, wsUrl });
    return { rpcUrl, wsUrl, info, connection, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}
