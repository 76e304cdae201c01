// The one place the app touches browser wallets: the Solana wallet adapter with Wallet Standard
// discovery (Phantom registers itself there) plus Phantom's injected provider as a fallback, which is
// also what the browser tests inject (packages/testing/src/phantom-test-provider.ts). It is loaded on
// demand with the sign-in session (features/auth/AuthRoot), never by the landing page itself.
import { type WalletName, WalletReadyState } from '@solana/wallet-adapter-base';
import { PhantomWalletAdapter } from '@solana/wallet-adapter-phantom';
import { useWallet, WalletProvider } from '@solana/wallet-adapter-react';
import type { Connection, Transaction } from '@solana/web3.js';
import { createElement, type ReactNode, useCallback, useMemo } from 'react';
import { isUserRejection, PhantomNotFoundError, WALLET_STORAGE_KEY } from './wallet-errors.ts';

export { isUserRejection, PhantomNotFoundError, WALLET_STORAGE_KEY };

export const PHANTOM = 'Phantom' as WalletName<'Phantom'>;

export function WalletProviders({ children }: { children: ReactNode }) {
  const wallets = useMemo(() => [new PhantomWalletAdapter()], []);
  return createElement(WalletProvider, {
    wallets,
    autoConnect: true,
    localStorageKey: WALLET_STORAGE_KEY,
    // Errors are handled where each action is started (connect, sign); the console keeps a trace.
    onError: (error: Error) => console.warn(`wallet: ${error.name} ${error.message}`),
    children,
  });
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
  const wallet = useWallet();
  const phantom = wallet.wallets.find((w) => w.adapter.name === PHANTOM);
  const {
    select,
    connect: connectSelected,
    disconnect,
    signMessage,
    publicKey,
    connecting,
    sendTransaction,
  } = wallet;
  const selectedName = wallet.wallet?.adapter.name;

  const connect = useCallback(async () => {
    if (!phantom || phantom.readyState !== WalletReadyState.Installed) throw new PhantomNotFoundError();
    if (selectedName === PHANTOM) return connectSelected();
    // Selecting lets autoConnect connect; this settles when the adapter says how that went.
    const { adapter } = phantom;
    await new Promise<void>((resolve, reject) => {
      const onConnect = () => {
        settle();
        resolve();
      };
      const onError = (error: Error) => {
        settle();
        reject(error);
      };
      const settle = () => {
        adapter.off('connect', onConnect);
        adapter.off('error', onError);
      };
      adapter.on('connect', onConnect);
      adapter.on('error', onError);
      select(PHANTOM);
    });
  }, [phantom, selectedName, select, connectSelected]);

  const forget = useCallback(() => select(null), [select]);

  const sign = useCallback(
    async (message: Uint8Array) => {
      if (!signMessage) throw new PhantomNotFoundError();
      return signMessage(message);
    },
    [signMessage],
  );

  const send = useCallback(
    (tx: Transaction, connection: Connection) => sendTransaction(tx, connection),
    [sendTransaction],
  );

  return {
    address: publicKey?.toBase58() ?? null,
    connecting,
    connect,
    disconnect,
    forget,
    signMessage: sign,
    sendTransaction: send,
  };
}
