// Addresses as base58 strings the API keeps (record addresses of watched wallets, for a session's life).
import type { PublicKey } from '@solana/web3.js';

/**
 * `key` in base58 as one flat string. web3.js encodes base58 (base-x) a character at a time, and V8 keeps
 * such a string, even as a Map key, as a chain of about 33 pieces (1 KB instead of 60 bytes; 2,000 addresses
 * measured in a heap snapshot) until something flattens it: at 10,000 live sessions, 10 MB of the engine's heap.
 */
export function flatBase58(key: PublicKey): string {
  return Buffer.from(key.toBase58(), 'latin1').toString('latin1');
}
