// Route /: the landing page without a wallet; with one, the sign-in sequence, then the signed-in screens
// (loaded on demand, so visitors of the landing page do not download the dashboard, but fetched as soon as
// Connect is pressed or a remembered wallet is restored: the download overlaps the wallet's signature).
import { lazy, Suspense, useEffect } from 'react';
import { Alert, Button, ErrorBoundary, PageSpinner } from '../../components/ui/index.ts';
import { AUTH_MESSAGES, useAuth } from '../../features/auth/index.ts';
import { LandingPage } from '../../features/landing/index.ts';

const loadSignedIn = () => import('./signed-in.tsx');
const SignedIn = lazy(loadSignedIn);

export const HOME_MESSAGES = {
  failed: 'This page could not be loaded.',
  reload: 'Reload',
} as const;

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
    <ErrorBoundary
      fallback={
        <Alert tone="error" title={HOME_MESSAGES.failed} className="mx-auto mt-8 max-w-xl">
          <Button size="sm" variant="secondary" className="mt-2" onClick={() => window.location.reload()}>
            {HOME_MESSAGES.reload}
          </Button>
        </Alert>
      }
    >
      <Suspense fallback={<PageSpinner label={AUTH_MESSAGES.loading} />}>
        <SignedIn wallet={auth.wallet} onDisconnect={() => void auth.disconnect()} />
      </Suspense>
    </ErrorBoundary>
  );
}
