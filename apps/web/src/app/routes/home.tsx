// Route /: the landing page without a wallet; with one, the sign-in sequence, then the signed-in screens
// (loaded on demand, so visitors of the landing page do not download the dashboard). While the wallet signs,
// only the definitions of the screens' first reads load (app/account.ts); the moment the sign-in keeps its
// token those reads start and the screens' code loads, its download and evaluation overlapping the reads
// (evaluated while the wallet signed, it held the sign-in's last request back). A remembered wallet, which
// signs nothing, has the screens' code fetched at once.
import { useQueryClient } from '@tanstack/react-query';
import { type ComponentType, lazy, useEffect, useState } from 'react';
import { PageSpinner } from '../../components/ui/index.ts';
import { AUTH_MESSAGES, useAuth } from '../../features/auth/index.ts';
import { authToken } from '../../lib/api.ts';
import { Loaded } from '../loaded.tsx';
import { LandingPage } from './landing.tsx';

type SignedInScreen = ComponentType<{ wallet: string; onDisconnect(): void }>;

// The screens once downloaded, rendered as they are: through React.lazy even then they would suspend for a
// moment (its import promise is new), and React reveals content that replaced a Suspense fallback no sooner
// than 300 ms after the fallback showed. Until they are there, the page shows a spinner of its own.
const signedInScreen = onDemand<SignedInScreen>(() => import('./signed-in.tsx').then((m) => m.default));
/** When the download failed: React.lazy tries again and the error boundary shows a failure. */
const SignedInLazy = lazy(() => import('./signed-in.tsx'));
const account = onDemand(() => import('../account.ts'));

/** A module loaded on demand and kept once there: `get()` has it at once, without waiting a task. */
function onDemand<M>(load: () => Promise<M>): { get(): M | undefined; load(): Promise<M> } {
  let loaded: M | undefined;
  return {
    get: () => loaded,
    load: () =>
      load().then((m) => {
        loaded = m;
        return m;
      }),
  };
}

export function HomeRoute() {
  const auth = useAuth();
  const client = useQueryClient();
  const wallet = auth.wallet;
  const signing = auth.status === 'authenticating';
  const signedIn = auth.status === 'authenticated' || auth.status === 'restoring';
  const [screen, setScreen] = useState<SignedInScreen | undefined>(() => signedInScreen.get());
  useEffect(() => {
    if (signing || signedIn) account.load().catch(() => {});
  }, [signing, signedIn]);
  useEffect(() => {
    if (!signedIn || screen) return;
    let current = true;
    signedInScreen.load().then(
      (loaded) => current && setScreen(() => loaded),
      () => current && setScreen(() => SignedInLazy),
    );
    return () => {
      current = false;
    };
  }, [signedIn, screen]);
  // The first reads start the moment the sign-in keeps its token, not a render later, and the screens'
  // code with them.
  useEffect(() => {
    if (!signing || !wallet) return;
    return authToken.listen(() => {
      signedInScreen.load().catch(() => {});
      const loaded = account.get();
      if (loaded) loaded.prefetchAccount(client, wallet);
      else
        account.load().then(
          (m) => m.prefetchAccount(client, wallet),
          () => {},
        );
    });
  }, [signing, wallet, client]);
  if (auth.status === 'restoring') return <PageSpinner label={AUTH_MESSAGES.loading} />;
  if (auth.status === 'disconnected' || auth.status === 'loading' || auth.status === 'connecting')
    return <LandingPage />;
  if (auth.status === 'authenticating' || !auth.wallet)
    return <PageSpinner label={AUTH_MESSAGES.authenticating} />;
  if (!screen) return <PageSpinner label={AUTH_MESSAGES.loading} />;
  const Screen = screen;
  return (
    <Loaded>
      <Screen wallet={auth.wallet} onDisconnect={() => void auth.disconnect()} />
    </Loaded>
  );
}
