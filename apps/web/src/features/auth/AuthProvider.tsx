// The sign-in sequence (spec §4): once a wallet is connected, get a nonce, sign its message, post the
// signature, keep the token. Failure disconnects and returns to the landing page with authError;
// declining in the wallet (4001) cancels quietly. Disconnecting clears everything and reloads.
import { type ReactNode, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { authToken } from '../../lib/api.ts';
import { closeSocket, connectSocket } from '../../lib/socket.ts';
import {
  isUserRejection,
  PhantomNotFoundError,
  useWalletSession,
  WALLET_STORAGE_KEY,
} from '../../lib/wallet.ts';
import { fetchNonce, postAuthenticate } from './api.ts';
import { AUTH_ERROR_PARAM, AuthContext, type AuthState, type AuthStatus } from './context.ts';
import { AUTH_MESSAGES } from './messages.ts';
import { tokenFits } from './token.ts';

function failTo(message: string) {
  const url = new URL(window.location.href);
  url.pathname = '/';
  url.search = '';
  url.searchParams.set(AUTH_ERROR_PARAM, message);
  window.history.replaceState(null, '', url);
  // The router listens to popstate; replaceState alone does not tell it.
  window.dispatchEvent(new PopStateEvent('popstate'));
}

export function AuthProvider({ children }: { children: ReactNode }) {
  const wallet = useWalletSession();
  const [token, setToken] = useState<string | null>(() => authToken.get());
  const attempt = useRef(0);
  const { address, signMessage } = wallet;
  const walletDisconnect = wallet.disconnect;

  const signedIn = address !== null && tokenFits(token, address);

  useEffect(() => {
    if (!address || tokenFits(authToken.get(), address)) return;
    const current = ++attempt.current;
    const stale = () => current !== attempt.current;
    void (async () => {
      const abandon = async (message?: string) => {
        authToken.clear();
        setToken(null);
        await walletDisconnect().catch(() => {});
        if (message) failTo(message);
      };
      let nonce: Awaited<ReturnType<typeof fetchNonce>>;
      try {
        nonce = await fetchNonce(address);
      } catch {
        if (!stale()) await abandon(AUTH_MESSAGES.nonceFailed);
        return;
      }
      let signature: Uint8Array;
      try {
        signature = await signMessage(new TextEncoder().encode(nonce.message));
      } catch (err) {
        if (!stale()) await abandon(isUserRejection(err) ? undefined : AUTH_MESSAGES.authFailed);
        return;
      }
      try {
        const { token: issued } = await postAuthenticate({
          publicKey: address,
          signedMessage: Array.from(signature),
          nonce: nonce.nonce,
        });
        if (stale()) return;
        authToken.set(issued);
        setToken(issued);
      } catch {
        if (!stale()) await abandon(AUTH_MESSAGES.authFailed);
      }
    })();
  }, [address, signMessage, walletDisconnect]);

  useEffect(() => {
    if (signedIn && address && token) connectSocket({ wallet: address, authToken: token });
  }, [signedIn, address, token]);

  const disconnect = useCallback(async () => {
    attempt.current++;
    closeSocket();
    await walletDisconnect().catch(() => {});
    authToken.clear();
    localStorage.removeItem(WALLET_STORAGE_KEY);
    sessionStorage.clear();
    window.location.reload();
  }, [walletDisconnect]);

  const connect = useCallback(async () => {
    try {
      await wallet.connect();
    } catch (err) {
      if (err instanceof PhantomNotFoundError) throw err;
      // Declining the connection (4001) or closing the wallet's window cancels quietly.
      if (!isUserRejection(err)) throw err;
    }
  }, [wallet]);

  const status: AuthStatus = signedIn
    ? 'authenticated'
    : address
      ? 'authenticating'
      : wallet.connecting
        ? 'connecting'
        : 'disconnected';

  const value = useMemo<AuthState>(
    () => ({ status, wallet: address, token: signedIn ? token : null, connect, disconnect }),
    [status, address, token, signedIn, connect, disconnect],
  );
  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}
