// Route /: the landing page without a wallet; with one, the sign-in sequence, then in order of
// precedence (spec §2): the maintenance page (maintenance on and beta access), the dashboard (beta
// access), else Beta Registration.
import { PageSpinner } from '../../components/ui/index.ts';
import { AUTH_MESSAGES, Logo, useAuth } from '../../features/auth/index.ts';
import { useBetaAccess } from '../../features/beta-access/index.ts';
import { DashboardShell } from '../../features/dashboard/index.ts';
import { LandingPage } from '../../features/landing/LandingPage.tsx';
import { MaintenancePage, MaintenanceToggle, useMaintenance } from '../../features/maintenance/index.ts';
import { RegistrationPage } from '../../features/registration/index.ts';
import { useIsAdmin } from '../../features/streamer/index.ts';

export function HomeRoute() {
  const auth = useAuth();
  if (auth.status === 'disconnected' || auth.status === 'connecting') return <LandingPage />;
  if (auth.status === 'authenticating' || !auth.wallet)
    return <PageSpinner label={AUTH_MESSAGES.authenticating} />;
  return <SignedIn wallet={auth.wallet} onDisconnect={() => void auth.disconnect()} />;
}

function SignedIn({ wallet, onDisconnect }: { wallet: string; onDisconnect(): void }) {
  const access = useBetaAccess(wallet);
  const maintenance = useMaintenance();
  const isAdmin = useIsAdmin(wallet);
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
        adminControls={isAdmin ? <MaintenanceToggle on={!inMaintenance} /> : null}
      />
    );
  }
  return <RegistrationPage wallet={wallet} logo={<Logo />} onDisconnect={onDisconnect} />;
}
