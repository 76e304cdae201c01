import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort, freePortPair, startProcess } from '@strm/testing';

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
  const product = await startProcess(process.execPath, ['--import', 'tsx', 'src/main.ts'], 'is ready at', {
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
    timeoutMs: 150_000,
    label: 'product',
  }).catch(async (err: unknown) => {
    await rm(dataDir, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 });
    throw err;
  });
  return {
    url: `http://127.0.0.1:${port}`,
    rpcUrl: `http://127.0.0.1:${chainPort}`,
    dataDir,
    async stop() {
      await product.stop();
      // The local chain, the API's child, may still be writing its ledger as it stops after the API.
      await rm(dataDir, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 });
    },
  };
}
