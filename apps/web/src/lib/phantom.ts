// Phantom's own provider (`window.phantom.solana`, what the extension injects in every page), for the one
// thing the app asks of it before the wallet adapter is loaded: a first sign-in (features/auth/AuthRoot).
// Connecting and signing a message need no web3.js; everything after goes through the adapter (lib/wallet.ts).
// The browser tests inject the same provider (packages/testing/src/phantom-test-provider.ts).

/** The part of Phantom's provider a sign-in uses (its public key is a web3.js PublicKey in the page). */
export interface PhantomProvider {
  isPhantom?: boolean;
  connect(): Promise<{ publicKey: { toBase58(): string } }>;
  disconnect(): Promise<void>;
  signMessage(message: Uint8Array): Promise<{ signature: Uint8Array }>;
  on?(event: 'accountChanged' | 'disconnect', listener: () => void): void;
  off?(event: 'accountChanged' | 'disconnect', listener: () => void): void;
}

/** Phantom's injected provider, or null (then the wallet adapter looks for Wallet Standard wallets). */
export function injectedPhantom(): PhantomProvider | null {
  const provider = (window as { phantom?: { solana?: PhantomProvider } }).phantom?.solana;
  return provider?.isPhantom ? provider : null;
}
