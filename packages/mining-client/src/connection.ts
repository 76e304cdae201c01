// web3.js 1.x keeps one WebSocket per Connection (rpc-websockets), opened by the first subscription (a
// confirmation's signature subscription) and reconnected after a drop. A process that stops the chain it
// talks to (the API at shutdown, the local chain's launcher) closes it first, for good.
import type { Connection } from '@solana/web3.js';

/** web3.js 1.x's WebSocket client, as far as closing it goes (no public way in 1.x). */
interface Web3Socket {
  setAutoReconnect(reconnect: boolean): void;
  reconnect_timer_id?: ReturnType<typeof setTimeout>;
  close(code?: number): void;
}

/**
 * Closes the Connection's WebSocket with a normal close and its reconnect turned off, so neither it nor a
 * reconnect already scheduled after a drop tries again (each try printed "ws error: connect ECONNREFUSED"
 * once the chain was gone).
 */
export function closeConnectionSocket(connection: Connection): void {
  const socket = (connection as unknown as { _rpcWebSocket?: Web3Socket })._rpcWebSocket;
  if (!socket) return;
  socket.setAutoReconnect(false);
  clearTimeout(socket.reconnect_timer_id);
  try {
    socket.close(1000);
  } catch {
    // Never opened, or closed already.
  }
}
