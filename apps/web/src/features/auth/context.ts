// The sign-in session's shape and context, free of the wallet adapter so the landing page can use it
// before the wallet code is loaded.
import { createContext, useContext } from 'react';

export const AUTH_ERROR_PARAM = 'authError';

export type AuthStatus = 'disconnected' | 'connecting' | 'authenticating' | 'authenticated';

export interface AuthState {
  status: AuthStatus;
  /** The signed-in (or signing-in) wallet. */
  wallet: string | null;
  token: string | null;
  /** Starts the wallet connection; throws PhantomNotFoundError without Phantom. */
  connect(): Promise<void>;
  /** Closes the socket, clears stored auth, wallet and session storage, reloads the page. */
  disconnect(): Promise<void>;
}

export const AuthContext = createContext<AuthState | null>(null);

export function useAuth(): AuthState {
  const auth = useContext(AuthContext);
  if (!auth) throw new Error('useAuth needs an AuthProvider');
  return auth;
}
