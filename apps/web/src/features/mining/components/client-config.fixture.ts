import type { ClientConfig } from '@strm/shared';
import { fakeApi } from '../../../testing/fake-api.ts';

/** `GET /api/v1/client-config` answers a local client config (no demo, no links). */
export function serveClientConfig(): void {
  const config: ClientConfig = {
    rpcUrl: 'http://rpc.invalid',
    demoPlatform: false,
    links: { dexChart: null, tokenExplorer: null, addressExplorer: null },
  };
  fakeApi({ 'GET /client-config': () => ({ body: config }) });
}
