// The signed-in screens of route /, in order of precedence (docs/product.md#sign-in-and-screen-precedence):
// the maintenance page (maintenance on and beta access), the dashboard (beta access), else Beta Registration.
// The dashboard's data is asked for beside the beta access and maintenance answers, which only decide what
// shows: it is in the cache, or on its way, when they arrive.
import { usePrefetchQuery } from '@tanstack/react-query';
import { PageSpinner } from '../../components/ui/index.ts';
import { AUTH_MESSAGES, Logo, useAuth } from '../../features/auth/index.ts';
import { useBetaAccess } from '../../features/beta-access/index.ts';
import { MaintenancePage, useMaintenance } from '../../features/maintenance/index.ts';
import { miningStatsQuery } from '../../features/mining/index.ts';
import { RegistrationPage } from '../../features/registration/index.ts';
import { tokenBalanceQuery, useIsAdmin } from '../../features/streamer/index.ts';
import { platformsQuery } from '../../features/streaming/index.ts';
import { useAppSocket } from '../../lib/socket.ts';
import { DashboardRoute } from './dashboard.tsx';

export default function SignedIn({ wallet, onDisconnect }: { wallet: string; onDisconnect(): void }) {
  // The app's one socket, for as long as these screens show (lib/socket.ts).
  useAppSocket(wallet, useAuth().token);
  const access = useBetaAccess(wallet);
  const maintenance = useMaintenance();
  // The streamer record (admin flag, active tier) is read here too.
  const isAdmin = useIsAdmin(wallet);
  usePrefetchQuery(tokenBalanceQuery(wallet));
  usePrefetchQuery(miningStatsQuery(wallet));
  usePrefetchQuery(platformsQuery(wallet));
  if (access.isPending || maintenance.isPending) return <PageSpinner label={AUTH_MESSAGES.loading} />;
  const inMaintenance = maintenance.status?.is_maintenance ?? false;
  if (inMaintenance && access.hasAccess) {
    return <MaintenancePage message={maintenance.status?.message ?? ''} isAdmin={isAdmin} />;
  }
  if (access.hasAccess) {
    return (
      <DashboardRoute
        wallet={wallet}
        isAdmin={isAdmin}
        inMaintenance={inMaintenance}
        onDisconnect={onDisconnect}
      />
    );
  }
  return <RegistrationPage wallet={wallet} logo={<Logo />} onDisconnect={onDisconnect} />;
}
