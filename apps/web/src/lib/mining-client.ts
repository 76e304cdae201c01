// The mining program's client for the browser, loaded on demand with the first wallet transaction, with the
// part of web3.js the dashboard's transactions build on: web3.js is not part of the signed-in screens' first
// load (docs/architecture.md#the-web-apps-wallet-code). The Buffer global must exist before Anchor evaluates,
// hence the import order.
import './buffer-global.ts';

export { PublicKey, SystemProgram, Transaction } from '@solana/web3.js';
export * from '@strm/mining-client';
export { rpcConnection } from './rpc.ts';
