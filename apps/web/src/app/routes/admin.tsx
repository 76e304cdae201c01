// Route /admin: the admin console, in a chunk of its own (the landing page does not load it).
import { Link } from 'react-router';
import { Alert, Button } from '../../components/ui/index.ts';
import { ADMIN_MESSAGES, AdminConsole } from '../../features/admin/index.ts';
import { AUTH_MESSAGES, ConnectButton, Logo, useAuth } from '../../features/auth/index.ts';
import { PageSpinner } from '../../components/ui/index.ts';
import { useAppSocket } from '../../lib/socket.ts';

export default function AdminRoute() {
  const auth = useAuth();
  const signedIn = auth.status === 'authenticated' && auth.wallet;
  // The socket tells the console of a maintenance switch made elsewhere at once (lib/socket.ts).
  useAppSocket(signedIn ? auth.wallet : null, auth.token);
  return (
    <div className="min-h-screen">
      <header className="border-b border-slate-800 bg-slate-950/80">
        <div className="mx-auto flex max-w-6xl flex-wrap items-center justify-between gap-3 px-4 py-3">
          <Link to="/" className="rounded-lg focus-visible:outline-2 focus-visible:outline-violet-400">
            <Logo />
            <span className="sr-only">{ADMIN_MESSAGES.back}</span>
          </Link>
          <div className="flex items-center gap-2">
            {signedIn ? (
              <Button variant="secondary" size="sm" onClick={() => void auth.disconnect()}>
                Disconnect
              </Button>
            ) : (
              <ConnectButton />
            )}
          </div>
        </div>
      </header>
      <main className="mx-auto max-w-6xl px-4 py-6">
        {auth.status === 'restoring' ? (
          <PageSpinner label={AUTH_MESSAGES.loading} />
        ) : auth.status === 'authenticating' ? (
          <PageSpinner label={AUTH_MESSAGES.authenticating} />
        ) : signedIn ? (
          <AdminConsole />
        ) : (
          <Alert tone="info" className="mx-auto max-w-xl">
            {ADMIN_MESSAGES.connect}
          </Alert>
        )}
      </main>
    </div>
  );
}
