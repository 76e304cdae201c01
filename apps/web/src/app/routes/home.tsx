// Route /: the landing page without a wallet; with one, the sign-in sequence, then the signed-in screens
// (loaded on demand, so visitors of the landing page do not download the dashboard, but fetched as soon as
// the wallet is connected or a remembered wallet is restored: the download overlaps the wallet's signature).
import { useQueryClient } from '@tanstack/react-query';
import { type ComponentType, lazy, useEffect, useState } from 'react';
import { PageSpinner } from '../../components/ui/index.ts';
import { AUTH_MESSAGES, useAuth } from '../../features/auth/index.ts';
import { authToken } from '../../lib/api.ts';
import { Loaded } from '../loaded.tsx';
import { LandingPage } from './landing.tsx';

type SignedInScreen = ComponentType<{ wallet: string; onDisconnect(): void }>;

// The screens once downloaded. Rendered through React.lazy even then, they would suspend for a moment (its
// import promise is new), and React reveals content that replaced a Suspense fallback no sooner than 300 ms
// after the fallback showed: a third of a second added to every sign-in.
let downloaded: typeof import('./signed-in.tsx') | undefined;
const loadSignedIn = () =>
  import('./signed-in.tsx').then((m) => {
    downloaded = m;
    return m;
  });
const SignedInLazy = lazy(loadSignedIn);

export function HomeRoute() {
  const auth = useAuth();
  // From the moment the wallet is connected (signing in) or a remembered wallet is restored; not while the
  // wallet code itself loads and connects after a press of Connect: these screens' code (and the schemas it
  // builds) would compete with it for the main thread and delay the sign-in's first request, while the
  // signature and the sign-in's requests leave the main thread idle.
  const wanted = auth.status !== 'disconnected' && auth.status !== 'loading' && auth.status !== 'connecting';
  useEffect(() => {
    // A failed download shows in the error boundary below when the screen renders.
    if (wanted) loadSignedIn().catch(() => {});
  }, [wanted]);
  // The signed-in screens' reads start the moment the sign-in keeps its token, not a render later.
  const client = useQueryClient();
  const wallet = auth.wallet;
  useEffect(() => {
    if (!wanted || !wallet) return;
    return authToken.listen(() => {
      // At once when the screens' code is there (a dynamic import resolves a task later, after React has
      // rendered them with the token and they have asked themselves).
      if (downloaded) downloaded.prefetchAccount(client, wallet);
      else
        loadSignedIn().then(
          (m) => m.prefetchAccount(client, wallet),
          () => {},
        );
    });
  }, [wanted, wallet, client]);
  if (auth.status === 'restoring') return <PageSpinner label={AUTH_MESSAGES.loading} />;
  if (auth.status === 'disconnected' || auth.status === 'loading' || auth.status === 'connecting')
    return <LandingPage />;
  if (auth.status === 'authenticating' || !auth.wallet)
    return <PageSpinner label={AUTH_MESSAGES.authenticating} />;
  return (
    <Loaded>
      <SignedIn wallet={auth.wallet} onDisconnect={() => void auth.disconnect()} />
    </Loaded>
  );
}

/** The downloaded screens at once when they are there (the usual case: fetched while the wallet signed). */
function SignedIn(props: { wallet: string; onDisconnect(): void }) {
  // A function state is taken as an initialiser: the component is wrapped in an object.
  const [{ Screen }] = useState<{ Screen: SignedInScreen }>(() => ({
    Screen: downloaded?.default ?? SignedInLazy,
  }));
  return <Screen {...props} />;
}
