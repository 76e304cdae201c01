// The maintenance status read (get_maintenance_status), apart from the screens and the socket: the sign-in
// starts it with the signed-in screens' other reads (app/account.ts).
import { INTERVALS_MS, maintenanceStatusSchema } from '@strm/shared';
import { queryOptions } from '@tanstack/react-query';
import { apiRequest } from '../../lib/api.ts';

export const MAINTENANCE_KEY = ['maintenance'];

/** get_maintenance_status, polled every 30 s while a screen shows it. */
export const maintenanceQuery = queryOptions({
  queryKey: MAINTENANCE_KEY,
  queryFn: () => apiRequest('/maintenance', maintenanceStatusSchema),
  refetchInterval: INTERVALS_MS.maintenancePoll,
});
