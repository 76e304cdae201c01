import { chmod, mkdtemp, readFile, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
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
  /** Runs SQL on the product's embedded PostgreSQL (a test's setup, e.g. history the UI cannot make). */
  sql(text: string, params?: unknown[]): Promise<void>;
  stop(): Promise<void>;
}

/** The API's own PostgreSQL client (node-postgres), from its package: the web app has no use for one. */
const pg = createRequire(join(repoRoot, 'apps', 'api', 'package.json'))('pg') as {
  Client: new (opts: {
    connectionString: string;
  }) => {
    connect(): Promise<void>;
    query(text: string, params?: unknown[]): Promise<unknown>;
    end(): Promise<void>;
  };
};

/** Starts the whole product as `pnpm start` does (built web app served by the API), on free ports. */
export async function startProduct(env: Record<string, string> = {}): Promise<Product> {
  const dataDir = await mkdtemp(join(tmpdir(), 'strm-e2e-'));
  await chmod(dataDir, 0o755);
  const port = await freePort();
  const chainPort = await freePortPair();
  const pgPort = await freePort();
  const product = await startProcess(process.execPath, ['--import', 'tsx', 'src/main.ts'], 'is ready at', {
    cwd: join(repoRoot, 'apps', 'api'),
    env: {
      ...process.env,
      LOG_LEVEL: 'warn',
      DATA_DIR: dataDir,
      PORT: String(port),
      EMBEDDED_PG_PORT: String(pgPort),
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
    async sql(text, params = []) {
      const password = (await readFile(join(dataDir, 'postgres', 'password'), 'utf8')).trim();
      const client = new pg.Client({
        connectionString: `postgresql://postgres:${encodeURIComponent(password)}@127.0.0.1:${pgPort}/strm`,
      });
      await client.connect();
      try {
        await client.query(text, params);
      } finally {
        await client.end();
      }
    },
    async stop() {
      await product.stop();
      // The local chain, the API's child, may still be writing its ledger as it stops after the API.
      await rm(dataDir, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 });
    },
  };
}
