// The one Solana RPC connection of the app, to the endpoint the API names (GET /client-config).
import { Connection } from '@solana/web3.js';

let cached: { url: string; connection: Connection } | null = null;

export function rpcConnection(url: string): Connection {
  if (cached?.url !== url) {
    cached = { url, connection: new Connection(url, { commitment: 'confirmed' }) };
  }
  return cached.connection;
}
