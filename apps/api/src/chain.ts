import { Connection } from '@solana/web3.js';

/** What the API needs of a Solana cluster; the same for the local chain, devnet or mainnet. */
export interface Chain {
  rpcUrl: string;
  wsUrl: string;
  connection: Connection;
  ping(): Promise<void>;
}

export function defaultWsUrl(rpcUrl: string): string {
  const url = new URL(rpcUrl);
  url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
  // Solana's convention: PubSub listens on the RPC port + 1.
  if (url.port) url.port = String(Number(url.port) + 1);
  return url.toString();
}

export function createChain(rpcUrl: string, wsUrl = defaultWsUrl(rpcUrl)): Chain {
  const connection = new Connection(rpcUrl, { commitment: 'confirmed', wsEndpoint: wsUrl });
  return {
    rpcUrl,
    wsUrl,
    connection,
    async ping() {
      await connection.getVersion();
    },
  };
}
