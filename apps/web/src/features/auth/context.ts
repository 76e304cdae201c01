// The sign-in session's shape and context, free of the wallet adapter so the landing page can use it
// before the wallet code is loaded.
import type { Connection, Transaction } from '@solana/web3.js';
import { createContext, useContext } from 'react';

export const AUTH_ERROR_PARAM = 'authError';

/**
 * - restoring: a returning visitor's remembered wallet is being reconnected (wallet code loading first);
 * - loading: the visitor pressed Connect and the wallet code is loading;
 * - connecting: the wallet is asked to connect; authenticating: signing in; authenticated: signed in.
 */
export type AuthStatus =
  | 'restoring'
  | 'loading'
  | 'disconnected'
  | 'connecting'
  | 'authenticating'
  | 'authenticated';

export interface AuthState {
  status: AuthStatus;
  /** The signed-in (or signing-in) wallet. */
  wallet: string | null;
  token: string | null;
  /** Starts the wallet connection; throws PhantomNotFoundError without Phantom. */
  connect(): Promise<void>;
  /** Closes the socket, clears stored auth, wallet and session storage, reloads the page. */
  disconnect(): Promise<void>;
  /** Signs `tx` with the connected wallet and sends it; the signature. */
  sendTransaction(tx: Transaction, connection: Connection): Promise<string>;
}

export const AuthContext = createContext<AuthState | null>(null);

export function useAuth(): AuthState {
  const auth = useContext(AuthContext);
  if (!auth) throw new Error('useAuth needs an AuthRoot');
  return auth;
}
