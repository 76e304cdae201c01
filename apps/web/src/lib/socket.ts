// The one Socket.IO connection of the app and its state store. Features subscribe to events with
// useSocketEvent; no component opens its own socket.
import { type ServerEventName, type ServerEventPayload, SOCKET_RECONNECT } from '@strm/shared';
import { useEffect, useRef, useSyncExternalStore } from 'react';
import { io, type Socket } from 'socket.io-client';

export const SOCKET_CONNECT_FAILED = 'Failed to connect to server';

export interface SocketState {
  connected: boolean;
  error: string | null;
}

let socket: Socket | null = null;
let socketWallet: string | null = null;
let state: SocketState = { connected: false, error: null };
const stateListeners = new Set<() => void>();
const eventListeners = new Map<string, Set<(payload: unknown) => void>>();

function setState(next: Partial<SocketState>) {
  state = { ...state, ...next };
  for (const listener of stateListeners) listener();
}

/** Opens (or keeps) the socket for this wallet; the handshake carries wallet and authToken. */
export function connectSocket(auth: { wallet: string; authToken: string }): Socket {
  if (socket && socketWallet === auth.wallet) return socket;
  closeSocket();
  socketWallet = auth.wallet;
  socket = io({
    transports: ['websocket'],
    auth,
    reconnectionAttempts: SOCKET_RECONNECT.attempts,
    reconnectionDelay: SOCKET_RECONNECT.delayMs,
    reconnectionDelayMax: SOCKET_RECONNECT.delayMaxMs,
  });
  socket.on('connect', () => setState({ connected: true, error: null }));
  socket.on('disconnect', () => setState({ connected: false }));
  socket.on('connect_error', () => setState({ connected: false, error: SOCKET_CONNECT_FAILED }));
  socket.onAny((event: string, payload: unknown) => {
    for (const listener of eventListeners.get(event) ?? []) listener(payload);
  });
  return socket;
}

export function closeSocket(): void {
  socket?.removeAllListeners();
  socket?.close();
  socket = null;
  socketWallet = null;
  setState({ connected: false, error: null });
}

export function getSocket(): Socket | null {
  return socket;
}

export function useSocketState(): SocketState {
  return useSyncExternalStore(
    (listener) => {
      stateListeners.add(listener);
      return () => stateListeners.delete(listener);
    },
    () => state,
  );
}

/** Calls `handler` for every `event` the server sends on the app's socket. */
export function useSocketEvent<E extends ServerEventName>(
  event: E,
  handler: (payload: ServerEventPayload<E>) => void,
) {
  const latest = useRef(handler);
  latest.current = handler;
  useEffect(() => {
    const listener = (payload: unknown) => latest.current(payload as ServerEventPayload<E>);
    const set = eventListeners.get(event) ?? new Set();
    set.add(listener);
    eventListeners.set(event, set);
    return () => {
      set.delete(listener);
    };
  }, [event]);
}
