export { MaintenancePage } from './components/MaintenancePage.tsx';
export { MaintenanceToggle } from './components/MaintenanceToggle.tsx';
export { MAINTENANCE_MESSAGES } from './messages.ts';
export { maintenanceQuery } from './api.ts';
export { useMaintenance, useMaintenanceSwitch } from './useMaintenance.ts';
