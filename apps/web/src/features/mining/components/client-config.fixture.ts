import type { ClientConfig } from '@strm/shared';
import { vi } from 'vitest';

/** Answers every fetch with a local client config, as `GET /api/v1/client-config` would (no demo, no links). */
export function serveClientConfig(): void {
  const config: ClientConfig = {
    rpcUrl: 'http://rpc.invalid',
    demoPlatform: false,
    links: { dexChart: null, tokenExplorer: null, addressExplorer: null },
  };
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => Response.json(config)),
  );
}
