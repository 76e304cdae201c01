export { DashboardShell, DISCONNECT_LABEL } from './components/DashboardShell.tsx';
