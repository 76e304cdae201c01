import { type MaintenanceStatus, maintenanceStatusSchema } from '@strm/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../lib/api.ts';
import { useSocketEvent } from '../../lib/socket.ts';
import { MAINTENANCE_KEY as KEY, maintenanceQuery } from './api.ts';

/**
 * Maintenance status (get_maintenance_status): polled every 30 s and pushed by the socket
 * (maintenance-starting / maintenance-ended). An error reads as "not in maintenance".
 */
export function useMaintenance(): { status: MaintenanceStatus | undefined; isPending: boolean } {
  const client = useQueryClient();
  const query = useQuery(maintenanceQuery);
  useSocketEvent('maintenance-starting', ({ message }) => {
    client.setQueryData<MaintenanceStatus>(KEY, { is_maintenance: true, message });
  });
  useSocketEvent('maintenance-ended', () => {
    client.setQueryData<MaintenanceStatus>(KEY, (old) => ({
      is_maintenance: false,
      message: old?.message ?? '',
    }));
  });
  return { status: query.data, isPending: query.isPending };
}

/** The admin's switch (POST /maintenance/start|stop). */
export function useMaintenanceSwitch() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (on: boolean) =>
      on
        ? apiRequest('/maintenance/start', maintenanceStatusSchema, { method: 'POST', body: { start: true } })
        : apiRequest('/maintenance/stop', maintenanceStatusSchema, { method: 'POST', body: { stop: true } }),
    onSuccess: (status) => client.setQueryData(KEY, status),
  });
}
