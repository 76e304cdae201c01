// The one place the app touches the browser wallet: Phantom's injected provider (window.phantom.solana, or
// window.solana), which is also what the browser tests inject (packages/testing/src/phantom-test-provider.ts).
// It is loaded with the sign-in session (features/auth/AuthRoot), never by the landing page itself. It
// needs neither the Solana wallet adapter nor web3.js: connect, signMessage and signAndSendTransaction are
// the provider's own, and the address is the provider's key in base58. So signing in and showing the
// dashboard do not wait for web3.js, which the blockchain actions load on their own (useChainActions).
import type { Connection, Transaction } from '@solana/web3.js';
import { useCallback, useEffect, useState } from 'react';
import { isUserRejection, PhantomNotFoundError, WALLET_STORAGE_KEY } from './wallet-errors.ts';

export { isUserRejection, PhantomNotFoundError, WALLET_STORAGE_KEY };

/** What is remembered under WALLET_STORAGE_KEY (the value the Solana wallet adapter stored before). */
const REMEMBERED = JSON.stringify('Phantom');

interface ProviderKey {
  toBase58(): string;
}

/** The part of Phantom's injected provider the app uses. */
export interface PhantomProvider {
  isPhantom?: boolean;
  publicKey: ProviderKey | null;
  connect(): Promise<{ publicKey: ProviderKey }>;
  disconnect(): Promise<void>;
  signMessage(message: Uint8Array): Promise<{ signature: Uint8Array }>;
  signAndSendTransaction(
    tx: Transaction,
    options?: { preflightCommitment?: string },
  ): Promise<{ signature: string }>;
  on(event: string, listener: (...args: never[]) => void): void;
  off?(event: string, listener: (...args: never[]) => void): void;
  removeListener?(event: string, listener: (...args: never[]) => void): void;
}

type PhantomWindow = Window & { phantom?: { solana?: PhantomProvider }; solana?: PhantomProvider };

function injected(): PhantomProvider | null {
  const w = window as PhantomWindow;
  const provider = w.phantom?.solana ?? w.solana;
  return provider?.isPhantom ? provider : null;
}

/** The provider, waiting for the page's load event when it is not there yet (extensions inject late). */
async function phantomProvider(): Promise<PhantomProvider> {
  const now = injected();
  if (now || document.readyState === 'complete') {
    if (now) return now;
    throw new PhantomNotFoundError();
  }
  await new Promise((resolve) => window.addEventListener('load', resolve, { once: true }));
  const loaded = injected();
  if (!loaded) throw new PhantomNotFoundError();
  return loaded;
}

export interface WalletSession {
  /** The connected wallet's address, base58. */
  address: string | null;
  connecting: boolean;
  /** Connects Phantom and resolves once it is connected; throws PhantomNotFoundError when there is none. */
  connect(): Promise<void>;
  disconnect(): Promise<void>;
  /** Forgets the remembered wallet (a returning visitor whose wallet is gone). */
  forget(): void;
  signMessage(message: Uint8Array): Promise<Uint8Array>;
  /** Signs `tx` with the wallet and sends it (Phantom's signAndSendTransaction); the signature. */
  sendTransaction(tx: Transaction, connection: Connection): Promise<string>;
}

export function useWalletSession(): WalletSession {
  const [address, setAddress] = useState<string | null>(null);
  const [connecting, setConnecting] = useState(false);

  // The wallet's own changes: another account chosen, or disconnected from the extension.
  useEffect(() => {
    const provider = injected();
    if (!provider) return;
    const onAccount = (key: ProviderKey | null) => setAddress(key ? key.toBase58() : null);
    const onDisconnect = () => {
      setAddress(null);
      localStorage.removeItem(WALLET_STORAGE_KEY);
    };
    provider.on('accountChanged', onAccount);
    provider.on('disconnect', onDisconnect);
    return () => {
      const off = (provider.off ?? provider.removeListener)?.bind(provider);
      off?.('accountChanged', onAccount);
      off?.('disconnect', onDisconnect);
    };
  }, []);

  const connect = useCallback(async () => {
    const provider = await phantomProvider();
    setConnecting(true);
    try {
      const { publicKey } = await provider.connect();
      localStorage.setItem(WALLET_STORAGE_KEY, REMEMBERED);
      setAddress(publicKey.toBase58());
    } finally {
      setConnecting(false);
    }
  }, []);

  const disconnect = useCallback(async () => {
    setAddress(null);
    localStorage.removeItem(WALLET_STORAGE_KEY);
    await injected()?.disconnect();
  }, []);

  const forget = useCallback(() => localStorage.removeItem(WALLET_STORAGE_KEY), []);

  const signMessage = useCallback(async (message: Uint8Array) => {
    const provider = injected();
    if (!provider) throw new PhantomNotFoundError();
    return (await provider.signMessage(message)).signature;
  }, []);

  const sendTransaction = useCallback(async (tx: Transaction, connection: Connection) => {
    const provider = injected();
    if (!provider) throw new PhantomNotFoundError();
    const { signature } = await provider.signAndSendTransaction(tx, {
      preflightCommitment: connection.commitment,
    });
    return signature;
  }, []);

  return { address, connecting, connect, disconnect, forget, signMessage, sendTransaction };
}
