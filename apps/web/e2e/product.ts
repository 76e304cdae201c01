import { type ChildProcess, spawn } from 'node:child_process';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort, freePortPair } from '@strm/testing';

const repoRoot = fileURLToPath(new URL('../../..', import.meta.url));

export interface Product {
  url: string;
  /** The local chain's JSON-RPC endpoint. */
  rpcUrl: string;
  dataDir: string;
  stop(): Promise<void>;
}

/** Starts the whole product as `pnpm start` does (built web app served by the API), on free ports. */
export async function startProduct(env: Record<string, string> = {}): Promise<Product> {
  const dataDir = await mkdtemp(join(tmpdir(), 'strm-e2e-'));
  await chmod(dataDir, 0o755);
  const port = await freePort();
  const chainPort = await freePortPair();
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: join(repoRoot, 'apps', 'api'),
    env: {
      ...process.env,
      LOG_LEVEL: 'warn',
      DATA_DIR: dataDir,
      PORT: String(port),
      EMBEDDED_PG_PORT: String(await freePort()),
      LOCAL_CHAIN_PORT: String(chainPort),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const ready = new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`product did not start:\n${output}`)), 150_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('is ready at')) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    void exited.then(() => {
      clearTimeout(timer);
      reject(new Error(`product exited before it was ready:\n${output}`));
    });
  });
  try {
    await ready;
  } catch (err) {
    // Not left running behind a failed suite. It may be blocked in the local chain's build (spawnSync),
    // where a SIGTERM handler cannot run: SIGKILL after a while.
    child.kill('SIGTERM');
    const killer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    await exited;
    clearTimeout(killer);
    await rm(dataDir, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 });
    throw err;
  }
  return {
    url: `http://127.0.0.1:${port}`,
    rpcUrl: `http://127.0.0.1:${chainPort}`,
    dataDir,
    async stop() {
      child.kill('SIGTERM');
      await exited;
      // The local chain, the API's child, may still be writing its ledger as it stops after the API.
      await rm(dataDir, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 });
    },
  };
}
