// PostgreSQL LISTEN on one channel, for changes any API process or the CLI makes (NOTIFY in their transaction).
// A dropped connection (a database restart or failover) is re-established every second until stopped;
// notifications sent meanwhile are missed, so each listener's readers also re-read on their own schedule.
import pg from 'pg';
import type { Logger } from '../logger.ts';

export interface ChannelListener {
  stop(): Promise<void>;
}

/** Calls `onPayload` with each non-empty payload on `channel`; rejects if the first connection fails. */
export async function listenToChannel(
  databaseUrl: string,
  channel: string,
  onPayload: (payload: string) => void,
  logger: Logger,
): Promise<ChannelListener> {
  let stopped = false;
  let client: pg.Client | undefined;
  let retry: NodeJS.Timeout | undefined;
  const scheduleReconnect = () => {
    if (stopped || retry) return;
    retry = setTimeout(() => {
      retry = undefined;
      connect().catch(scheduleReconnect);
    }, 1000);
  };
  const connect = async (): Promise<void> => {
    const next = new pg.Client({ connectionString: databaseUrl });
    next.on('notification', (msg) => {
      if (msg.channel === channel && msg.payload) onPayload(msg.payload);
    });
    next.on('error', (err) => {
      logger.warn({ err, channel }, 'database listener lost its connection');
      next.end().catch(() => {});
      scheduleReconnect();
    });
    await next.connect();
    await next.query(`LISTEN ${channel}`);
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
