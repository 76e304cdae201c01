// Route /: the landing page without a wallet; with one, the sign-in sequence, then the signed-in screens
// (loaded on demand, so visitors of the landing page do not download the dashboard, but fetched as soon as
// Connect is pressed or a remembered wallet is restored: the download overlaps the wallet's signature).
import { lazy, useEffect } from 'react';
import { PageSpinner } from '../../components/ui/index.ts';
import { AUTH_MESSAGES, useAuth } from '../../features/auth/index.ts';
import { Loaded } from '../loaded.tsx';
import { LandingPage } from './landing.tsx';

const loadSignedIn = () => import('./signed-in.tsx');
const SignedIn = lazy(loadSignedIn);

export function HomeRoute() {
  const auth = useAuth();
  const signingIn = auth.status !== 'disconnected';
  useEffect(() => {
    // A failed download shows in the error boundary below when the screen renders.
    if (signingIn) loadSignedIn().catch(() => {});
  }, [signingIn]);
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
