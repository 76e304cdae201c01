// Pushes maintenance changes to every socket: `maintenance-starting { message }` and `maintenance-ended`.
// Changes arrive on PostgreSQL's NOTIFY channel (services/maintenance.ts), whether the API or the CLI
// made them, so every API process announces them.
import type { MaintenanceStatus } from '@strm/shared';
import { type ChannelListener, listenToChannel } from '../db/listen.ts';
import type { Logger } from '../logger.ts';
import { MAINTENANCE_CHANNEL } from '../services/maintenance.ts';
import type { AppServer } from './contract.ts';

/** To this instance's sockets only: every instance receives the NOTIFY and tells its own clients. */
export function broadcastMaintenance(io: AppServer, status: MaintenanceStatus): void {
  if (status.is_maintenance) io.local.emit('maintenance-starting', { message: status.message });
  else io.local.emit('maintenance-ended', {});
}

/**
 * `onChange` runs before the broadcast: the mining engine ends every live session at a maintenance start
 * (credited up to that instant) and refuses new ones until it ends.
 */
export async function watchMaintenance(
  databaseUrl: string,
  io: AppServer,
  logger: Logger,
  onChange: (status: MaintenanceStatus) => Promise<unknown> | unknown = () => {},
): Promise<ChannelListener> {
  // Notifications missed while the connection is down: clients still poll GET /maintenance every 30 s.
  return listenToChannel(
    databaseUrl,
    MAINTENANCE_CHANNEL,
    (payload) => {
      let status: MaintenanceStatus;
      try {
        status = JSON.parse(payload) as MaintenanceStatus;
      } catch (err) {
        logger.error({ err }, 'bad maintenance notification');
        return;
      }
      Promise.resolve()
        .then(() => onChange(status))
        .catch((err: unknown) => logger.error({ err }, 'maintenance change handler failed'))
        .then(() => broadcastMaintenance(io, status))
        .catch((err: unknown) => logger.error({ err }, 'maintenance broadcast failed'));
    },
    logger,
  );
}
