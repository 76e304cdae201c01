// The wallet adapter and the sign-in sequence (docs/product.md#sign-in-sequence), loaded on demand by
// AuthRoot: once a wallet is connected, get a nonce, sign its message, post the signature, keep the token
// (the signed-in screens open the socket with it: app/routes/signed-in.tsx).
// Failure disconnects and returns to the landing page with authError; declining in the wallet (4001) cancels
// quietly. Disconnecting clears everything and reloads. It renders nothing: it publishes the session's state
// to AuthRoot, so the app below never remounts when this code arrives.
import { memo, useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { authToken } from '../../lib/api.ts';
import {
  isUserRejection,
  PhantomNotFoundError,
  useWalletSession,
  WalletProviders,
} from '../../lib/wallet.ts';
import type { AuthState, AuthStatus } from './context.ts';
import { failTo, signIn, signOut } from './sign-in.ts';
import { tokenFits } from './token.ts';

/** Why the session was loaded: a returning visitor's remembered wallet, or the visitor pressed Connect. */
export interface SessionStart {
  returning: boolean;
  /** Told once, when the first connection attempt has settled (the error, if it failed). */
  settled(error?: unknown): void;
}

interface SessionProps {
  start: SessionStart;
  onChange(state: AuthState): void;
}

function AuthSession({ start, onChange }: SessionProps) {
  const wallet = useWalletSession();
  const [token, setToken] = useState<string | null>(() => authToken.get());
  const attempt = useRef(0);
  const {
    address,
    signMessage,
    connecting,
    forget,
    sendTransaction,
    connect: walletConnect,
    disconnect: walletDisconnect,
  } = wallet;

  const signedIn = address !== null && tokenFits(token, address);

  useEffect(() => {
    if (!address || tokenFits(authToken.get(), address)) return;
    const current = ++attempt.current;
    const stale = () => current !== attempt.current;
    void (async () => {
      const outcome = await signIn(address, signMessage);
      if (stale()) return;
      if ('token' in outcome) {
        authToken.set(outcome.token);
        setToken(outcome.token);
        return;
      }
      authToken.clear();
      setToken(null);
      await walletDisconnect().catch(() => {});
      if ('failed' in outcome) failTo(outcome.failed);
    })();
  }, [address, signMessage, walletDisconnect]);

  const disconnect = useCallback(async () => {
    attempt.current++;
    await signOut(walletDisconnect);
  }, [walletDisconnect]);

  const connect = useCallback(async () => {
    try {
      await walletConnect();
    } catch (err) {
      if (err instanceof PhantomNotFoundError) throw err;
      // Declining the connection (4001) or closing the wallet's window cancels quietly.
      if (!isUserRejection(err)) throw err;
    }
  }, [walletConnect]);

  // The first attempt, started once (the session exists because it was asked for), once this render's effects
  // have all run: the wallet provider's (a parent's, so after this one) subscribe to the adapter's connect
  // event, which the adapter emits without waiting when Phantom is connected already (a first sign-in went
  // through Phantom's provider, AuthRoot): started at once, that event was lost and the session never had the
  // wallet.
  const [starting, setStarting] = useState(true);
  const started = useRef(false);
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    void Promise.resolve()
      .then(connect)
      .then(
        () => {
          setStarting(false);
          start.settled();
        },
        (err: unknown) => {
          // A returning visitor whose wallet is gone sees the landing page, and is not asked again.
          if (start.returning) forget();
          setStarting(false);
          start.settled(err);
        },
      );
  }, [connect, forget, start]);

  const status: AuthStatus = signedIn
    ? 'authenticated'
    : address
      ? 'authenticating'
      : starting && start.returning
        ? 'restoring'
        : connecting
          ? 'connecting'
          : starting
            ? 'loading'
            : 'disconnected';

  const value = useMemo<AuthState>(
    () => ({
      status,
      wallet: address,
      token: signedIn ? token : null,
      connect,
      disconnect,
      sendTransaction,
    }),
    [status, address, token, signedIn, connect, disconnect, sendTransaction],
  );
  // Published before the browser paints, so the page never shows a state the session has left.
  useLayoutEffect(() => onChange(value), [value, onChange]);
  return null;
}

/** The wallet adapter and the sign-in session: loaded on demand by AuthRoot. */
export const WalletAuth = memo(function WalletAuth(props: SessionProps) {
  return (
    <WalletProviders>
      <AuthSession {...props} />
    </WalletProviders>
  );
});
