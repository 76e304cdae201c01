// The signed-in screens of route /, in order of
// precedence (spec §2): the maintenance page (maintenance on and beta access), the dashboard (beta
// access), else Beta Registration.
import { Link } from 'react-router';
import { PageSpinner } from '../../components/ui/index.ts';
import { AUTH_MESSAGES, Logo } from '../../features/auth/index.ts';
import { useBetaAccess } from '../../features/beta-access/index.ts';
import { Dashboard, DashboardShell, TierBadge, useActiveTier } from '../../features/dashboard/index.ts';
import { MaintenancePage, MaintenanceToggle, useMaintenance } from '../../features/maintenance/index.ts';
import { RegistrationPage } from '../../features/registration/index.ts';
import { useIsAdmin } from '../../features/streamer/index.ts';

export default function SignedIn({ wallet, onDisconnect }: { wallet: string; onDisconnect(): void }) {
  const access = useBetaAccess(wallet);
  const maintenance = useMaintenance();
  const isAdmin = useIsAdmin(wallet);
  const activeTier = useActiveTier(wallet);
  if (access.isPending || maintenance.isPending) return <PageSpinner label={AUTH_MESSAGES.loading} />;
  const inMaintenance = maintenance.status?.is_maintenance ?? false;
  if (inMaintenance && access.hasAccess) {
    return <MaintenancePage message={maintenance.status?.message ?? ''} isAdmin={isAdmin} />;
  }
  if (access.hasAccess) {
    return (
      <DashboardShell
        logo={<Logo />}
        wallet={wallet}
        onDisconnect={onDisconnect}
        adminControls={
          isAdmin ? (
            <>
              <MaintenanceToggle on={!inMaintenance} />
              <Link
                to="/admin"
                className="rounded-lg px-3 py-1.5 text-sm font-medium text-violet-300 hover:bg-slate-800 focus-visible:outline-2 focus-visible:outline-violet-400"
              >
                Admin console
              </Link>
            </>
          ) : null
        }
        tierBadge={<TierBadge activeTier={activeTier} />}
      >
        <Dashboard wallet={wallet} />
      </DashboardShell>
    );
  }
  return <RegistrationPage wallet={wallet} logo={<Logo />} onDisconnect={onDisconnect} />;
}
