// What the dashboard's blockchain actions need to build and send a transaction, apart from the program
// client (lib/mining-client.ts): web3.js and the RPC connection. Loaded on demand (features/mining's
// useChainActions), never with the dashboard itself.
export { PublicKey, SystemProgram, Transaction } from '@solana/web3.js';
export { rpcConnection } from './rpc.ts';
