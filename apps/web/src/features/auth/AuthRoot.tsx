// Loads the wallet adapter and the sign-in session only when needed: at once for a returning wallet,
// else when the visitor presses Connect. Until then the landing page runs on a light session that
// answers "disconnected".
import { type ReactNode, Suspense, lazy, useMemo, useState } from 'react';
import { authToken } from '../../lib/api.ts';
import { WALLET_STORAGE_KEY } from '../../lib/wallet-errors.ts';
import { AuthContext, type AuthState } from './context.ts';

const WalletAuth = lazy(() => import('./AuthProvider.tsx'));

type Deferred = { resolve(): void; reject(err: unknown): void };

export function AuthRoot({ children }: { children: ReactNode }) {
  const [request, setRequest] = useState<Deferred | undefined>();
  const [load, setLoad] = useState(
    () => localStorage.getItem(WALLET_STORAGE_KEY) !== null || authToken.get() !== null,
  );
  const light = useMemo<AuthState>(
    () => ({
      status: load ? 'connecting' : 'disconnected',
      wallet: null,
      token: null,
      connect: () =>
        new Promise<void>((resolve, reject) => {
          setRequest({ resolve, reject });
          setLoad(true);
        }),
      async disconnect() {},
    }),
    [load],
  );
  const lightTree = <AuthContext.Provider value={light}>{children}</AuthContext.Provider>;
  if (!load) return lightTree;
  return (
    <Suspense fallback={lightTree}>
      <WalletAuth connectOnMount={request}>{children}</WalletAuth>
    </Suspense>
  );
}
