// The one Socket.IO connection of the app and its state store. Features subscribe to events with
// useSocketEvent; no component opens its own socket.
import {
  type ClientEventName,
  type ClientEventPayload,
  type LiveState,
  type ServerEventName,
  SERVER_MESSAGES,
  type ServerEventPayload,
  SOCKET_RECONNECT,
} from '@strm/shared';
import { useEffect, useRef, useSyncExternalStore } from 'react';
import { io, type Socket } from 'socket.io-client';

export const SOCKET_CONNECT_FAILED = 'Failed to connect to server';

export const SOCKET_MESSAGES = {
  error: SERVER_MESSAGES.socketError,
  roomError: 'Room error occurred',
  initFailed: 'Failed to initialize socket connection',
} as const;

/** The live socket state of spec §3, kept here and only here. */
export type SocketState = LiveState;

/** Before the socket says anything (and after it closes); tests start panels from it too. */
export const initialSocketState: SocketState = {
  connected: false,
  error: null,
  roomData: null,
  isLive: false,
  streamDuration: 0,
  minedAmount: 0,
  miningRate: 0,
  pendingReward: 0,
  platform: null,
  maintenance: false,
  nextRateIncrease: null,
  currentDailyDuration: 0,
};

let socket: Socket | null = null;
let socketWallet: string | null = null;
let state: SocketState = initialSocketState;
const stateListeners = new Set<() => void>();
const eventListeners = new Map<string, Set<(payload: unknown) => void>>();

function setState(next: Partial<SocketState>) {
  state = { ...state, ...next };
  for (const listener of stateListeners) listener();
}

/** Opens (or keeps) the socket for this wallet; the handshake carries wallet and authToken. */
export function connectSocket(auth: { wallet: string; authToken: string }): Socket | null {
  if (socket && socketWallet === auth.wallet) return socket;
  closeSocket();
  try {
    socket = io({
      transports: ['websocket'],
      auth,
      reconnectionAttempts: SOCKET_RECONNECT.attempts,
      reconnectionDelay: SOCKET_RECONNECT.delayMs,
      reconnectionDelayMax: SOCKET_RECONNECT.delayMaxMs,
    });
  } catch {
    setState({ error: SOCKET_MESSAGES.initFailed });
    return null;
  }
  socketWallet = auth.wallet;
  socket.on('connect', () => setState({ connected: true, error: null }));
  // Spec §4: on disconnect, room data, live flag, duration, mined amount and rate reset.
  socket.on('disconnect', () =>
    setState({
      connected: false,
      roomData: null,
      isLive: false,
      streamDuration: 0,
      minedAmount: 0,
      miningRate: 0,
    }),
  );
  // A refusal by the server (no beta access, an expired session, too many connections) says why in its
  // data; anything else (the server unreachable) is the spec's generic message.
  socket.on('connect_error', (err?: Error & { data?: { message?: unknown } }) => {
    const refused = err?.data?.message;
    setState({ connected: false, error: typeof refused === 'string' ? refused : SOCKET_CONNECT_FAILED });
  });
  socket.onAny((event: string, payload: unknown) => {
    reduce(event as ServerEventName, payload as never);
    for (const listener of eventListeners.get(event) ?? []) listener(payload);
  });
  return socket;
}

/** How each server event changes the live state (spec §4 "Socket", "Rate increase", "Maintenance"). */
function reduce<E extends ServerEventName>(event: E, payload: ServerEventPayload<E>): void {
  const p = payload as ServerEventPayload<ServerEventName>;
  switch (event) {
    case 'stream-started': {
      const e = p as ServerEventPayload<'stream-started'>;
      setState({
        isLive: true,
        error: null,
        miningRate: e.miningRate,
        platform: e.platform,
        currentDailyDuration: e.currentDailyDuration,
        nextRateIncrease: e.nextRateIncrease,
        streamDuration: 0,
        minedAmount: 0,
      });
      break;
    }
    case 'mining-update': {
      const e = p as ServerEventPayload<'mining-update'>;
      setState({
        streamDuration: e.duration,
        minedAmount: e.minedAmount,
        miningRate: e.miningRate,
        platform: e.platform,
        currentDailyDuration: e.currentDailyDuration,
      });
      break;
    }
    case 'stream-stopped': {
      const e = p as ServerEventPayload<'stream-stopped'>;
      setState({
        isLive: false,
        miningRate: 0,
        streamDuration: e.duration,
        minedAmount: e.amountMined,
        pendingReward: e.pendingReward,
      });
      break;
    }
    case 'room-data':
      setState({ roomData: p as ServerEventPayload<'room-data'> });
      break;
    case 'room-error':
      setState({ roomData: null, error: (p as { message?: string }).message || SOCKET_MESSAGES.roomError });
      break;
    case 'left-room':
      setState({ roomData: null });
      break;
    case 'error':
      setState({ error: (p as { message?: string }).message || SOCKET_MESSAGES.error });
      break;
    case 'rate-increased': {
      const e = p as ServerEventPayload<'rate-increased'>;
      setState({ miningRate: e.miningRate, nextRateIncrease: e.nextRateIncrease });
      break;
    }
    case 'rewards-collected':
      setState({ pendingReward: 0 });
      break;
    case 'maintenance-starting':
      setState({ maintenance: true });
      break;
    case 'maintenance-ended':
      setState({ maintenance: false });
      break;
    default:
      break;
  }
}

/** Sends a client event on the app's socket; false when there is none. */
export function emitSocket<E extends ClientEventName>(event: E, payload: ClientEventPayload<E>): boolean {
  if (!socket) return false;
  socket.emit(event, payload);
  return true;
}

/** Seeds values the REST API knows before the socket says anything (e.g. the pending reward). */
export function seedSocketState(
  next: Partial<Pick<SocketState, 'pendingReward' | 'nextRateIncrease'>>,
): void {
  setState(next);
}

export function clearSocketError(): void {
  setState({ error: null });
}

export function closeSocket(): void {
  socket?.removeAllListeners();
  socket?.close();
  socket = null;
  socketWallet = null;
  setState(initialSocketState);
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

/**
 * Emits `event` and waits for the first of `success` (resolves) or `failure` (rejects with its message)
 * on the app's socket; rejects after `timeoutMs` without an answer.
 */
export function requestSocket<E extends ClientEventName, S extends ServerEventName>(
  event: E,
  payload: ClientEventPayload<E>,
  success: S,
  failure: ServerEventName[],
  timeoutMs = 60_000,
): Promise<ServerEventPayload<S>> {
  return new Promise((resolve, reject) => {
    const cleanups: Array<() => void> = [];
    const done = () => {
      clearTimeout(timer);
      for (const cleanup of cleanups) cleanup();
    };
    const listen = (name: string, fn: (payload: unknown) => void) => {
      const set = eventListeners.get(name) ?? new Set();
      set.add(fn);
      eventListeners.set(name, set);
      cleanups.push(() => set.delete(fn));
    };
    const timer = setTimeout(() => {
      done();
      reject(new Error('timeout waiting for the server'));
    }, timeoutMs);
    listen(success, (p) => {
      done();
      resolve(p as ServerEventPayload<S>);
    });
    for (const name of failure) {
      listen(name, (p) => {
        // A generic `error` names the event it answers; ignore those about other requests.
        const about = (p as { event?: string } | null)?.event;
        if (name === 'error' && about && about !== event) return;
        done();
        reject(new Error((p as { message?: string } | null)?.message || SOCKET_MESSAGES.error));
      });
    }
    if (!emitSocket(event, payload)) {
      done();
      reject(new Error(SOCKET_CONNECT_FAILED));
    }
  });
}
