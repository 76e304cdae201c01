// Pushes maintenance changes to every socket: `maintenance-starting { message }` and `maintenance-ended`.
// Changes arrive on PostgreSQL's NOTIFY channel (services/maintenance.ts), whether the API or the CLI
// made them, so every API process announces them.
import type { MaintenanceStatus } from '@strm/shared';
import pg from 'pg';
import type { Server } from 'socket.io';
import type { Logger } from '../logger.ts';
import { MAINTENANCE_CHANNEL } from '../services/maintenance.ts';

export interface MaintenanceWatcher {
  stop(): Promise<void>;
}

/** To this instance's sockets only: every instance receives the NOTIFY and tells its own clients. */
export function broadcastMaintenance(io: Server, status: MaintenanceStatus): void {
  if (status.is_maintenance) io.local.emit('maintenance-starting', { message: status.message });
  else io.local.emit('maintenance-ended', {});
}

/**
 * `onChange` runs before the broadcast: the mining engine ends every live session at a maintenance start
 * (credited up to that instant) and refuses new ones until it ends.
 */
export async function watchMaintenance(
  databaseUrl: string,
  io: Server,
  logger: Logger,
  onChange: (status: MaintenanceStatus) => Promise<unknown> | unknown = () => {},
): Promise<MaintenanceWatcher> {
  let stopped = false;
  let client: pg.Client | undefined;
  let retry: NodeJS.Timeout | undefined;

  const scheduleReconnect = () => {
    if (!stopped) retry = setTimeout(() => connect().catch(scheduleReconnect), 1000);
  };
  const connect = async (): Promise<void> => {
    const next = new pg.Client({ connectionString: databaseUrl });
    next.on('notification', (msg) => {
      if (msg.channel !== MAINTENANCE_CHANNEL || !msg.payload) return;
      let status: MaintenanceStatus;
      try {
        status = JSON.parse(msg.payload) as MaintenanceStatus;
      } catch (err) {
        logger.error({ err }, 'bad maintenance notification');
        return;
      }
      void Promise.resolve()
        .then(() => onChange(status))
        .catch((err: unknown) => logger.error({ err }, 'maintenance change handler failed'))
        .then(() => broadcastMaintenance(io, status));
    });
    // A dropped connection (database restart) is re-established; notifications meanwhile are missed,
    // and clients still poll GET /maintenance every 30 s.
    next.on('error', (err) => {
      logger.warn({ err }, 'maintenance listener lost its connection');
      void next.end().catch(() => {});
      scheduleReconnect();
    });
    await next.connect();
    await next.query(`LISTEN ${MAINTENANCE_CHANNEL}`);
    client = next;
  };

  await connect();
  return {
    async stop() {
      stopped = true;
      clearTimeout(retry);
      await client?.end().catch(() => {});
    },
  };
}
