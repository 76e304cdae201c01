// The sign-in session for the whole app, with the wallet adapter (and web3.js under it) loaded only when
// needed: at once for a returning visitor whose wallet is remembered, else when the visitor presses
// Connect. Until then the landing page runs on a light session that answers "disconnected". The loaded
// session renders beside the app and publishes its state into the same context, so the page does not
// remount (nor lose focus or input) when the wallet code arrives.
import { type ReactNode, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { WALLET_STORAGE_KEY } from '../../lib/wallet-errors.ts';
import { AuthContext, type AuthState } from './context.ts';
import type { SessionStart } from './WalletAuth.tsx';

type WalletAuthComponent = typeof import('./WalletAuth.tsx')['WalletAuth'];

const loadWalletAuth = () => import('./WalletAuth.tsx').then((m) => m.WalletAuth);

// Never reached: wallet transactions exist only on signed-in screens, which need the loaded session.
const notConnected = () => Promise.reject(new Error('The wallet code is not loaded'));

export function AuthRoot({ children }: { children: ReactNode }) {
  const [returning] = useState(() => localStorage.getItem(WALLET_STORAGE_KEY) !== null);
  const [requested, setRequested] = useState(returning);
  const [WalletAuth, setWalletAuth] = useState<WalletAuthComponent | null>(null);
  const [session, setSession] = useState<AuthState | null>(null);
  // The visitor's Connect press, answered when the first connection attempt settles.
  const pending = useRef<{ resolve(): void; reject(err: unknown): void } | null>(null);
  const loading = useRef(false);

  const load = useCallback(() => {
    setRequested(true);
    if (loading.current) return;
    loading.current = true;
    loadWalletAuth().then(
      (component) => setWalletAuth(() => component),
      (err: unknown) => {
        // A failed download (offline, a new deployment): back to Connect, which tries again.
        loading.current = false;
        setRequested(false);
        pending.current?.reject(err);
        pending.current = null;
      },
    );
  }, []);

  useEffect(() => {
    if (returning) load();
  }, [returning, load]);

  const start = useMemo<SessionStart>(
    () => ({
      returning,
      settled(error) {
        const request = pending.current;
        pending.current = null;
        if (error === undefined) request?.resolve();
        else if (request) request.reject(error);
      },
    }),
    [returning],
  );

  const light = useMemo<AuthState>(
    () => ({
      status: requested ? (returning ? 'restoring' : 'loading') : 'disconnected',
      wallet: null,
      token: null,
      connect: () =>
        new Promise<void>((resolve, reject) => {
          pending.current = { resolve, reject };
          load();
        }),
      async disconnect() {},
      sendTransaction: notConnected,
    }),
    [requested, returning, load],
  );

  return (
    <AuthContext.Provider value={session ?? light}>
      {WalletAuth && <WalletAuth start={start} onChange={setSession} />}
      {children}
    </AuthContext.Provider>
  );
}
