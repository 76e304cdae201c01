// The client's address as the REST limits see it (Express's `trust proxy`), read once from the HTTP request
// that opened the connection, which is then let go. Socket.IO otherwise keeps that request for the whole
// life of the connection (its own docs' advice on memory): about 4 KB of heap per socket, 40 MB at 10,000
// live sessions, marked again by every full collection (docs/engine.md#a-sessions-life).
import proxyaddr from 'proxy-addr';
import type { AppServer, AppSocket } from './contract.ts';

interface Connection {
  request: Parameters<typeof proxyaddr>[0] | null;
  remoteAddress: string;
  /** Set here at the connection's start, for the namespaces' handshakes. */
  clientAddress?: string;
}

/** From `io.attach` on: each connection's client address kept, its HTTP request dropped. */
export function keepClientAddresses(io: AppServer, trustProxy: (addr: string, i: number) => boolean): void {
  io.engine.on('connection', (raw: Connection) => {
    if (raw.request) raw.clientAddress = proxyaddr(raw.request, trustProxy);
    raw.request = null;
  });
}

/** The socket's client address (its connection's peer when no address was kept). */
export function clientAddress(socket: Pick<AppSocket, 'conn'>): string {
  const raw = socket.conn as unknown as Connection;
  return raw.clientAddress ?? raw.remoteAddress;
}
