export { Dashboard, TierBadge, useActiveTier } from './components/Dashboard.tsx';
export { DashboardShell, DISCONNECT_LABEL } from './components/DashboardShell.tsx';
