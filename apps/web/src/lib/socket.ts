// The one Socket.IO connection of the app and its state store. Features subscribe to events with
// useSocketEvent; no component opens its own socket. The events and their payloads are the shared contract
// (@strm/shared, schemas/events.ts), typed through Socket.IO's generics.
import {
  type Ack,
  type AcknowledgedEventName,
  type ClientEventName,
  type ClientEventPayload,
  type ClientToServerEvents,
  type LiveState,
  SERVER_MESSAGES,
  type ServerEventName,
  type ServerEventPayload,
  type ServerToClientEvents,
} from '@strm/shared';
import { useEffect, useRef, useSyncExternalStore } from 'react';
import { io, type Socket } from 'socket.io-client';

const SOCKET_CONNECT_FAILED = 'Failed to connect to server';

const SOCKET_MESSAGES = {
  error: SERVER_MESSAGES.socketError,
  roomError: 'Room error occurred',
  initFailed: 'Failed to initialize socket connection',
} as const;

/** Five reconnection attempts, from 1 s up to 5 s apart (docs/product.md#socket). */
const SOCKET_RECONNECT = { attempts: 5, delayMs: 1000, delayMaxMs: 5000 } as const;

/** How long a request answered by an acknowledgement (activate-tier, …) waits for it. */
export const REQUEST_TIMEOUT_MS = 60_000;

type AppSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

/** The live socket state of docs/product.md#live-socket-state, kept here and only here. */
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

let socket: AppSocket | null = null;
let socketWallet: string | null = null;
let state: SocketState = initialSocketState;
const stateListeners = new Set<() => void>();
/** useSocketEvent's listeners, one set per server event (all of them, so a listener is never a stray key). */
const eventListeners: { [E in ServerEventName]: Set<(payload: ServerEventPayload<E>) => void> } = {
  'stream-started': new Set(),
  'mining-update': new Set(),
  'stream-stopped': new Set(),
  'joined-room': new Set(),
  'room-data': new Set(),
  'room-error': new Set(),
  'left-room': new Set(),
  'tier-activated': new Set(),
  'tier-deactivated': new Set(),
  'tier-error': new Set(),
  'maintenance-starting': new Set(),
  'maintenance-ended': new Set(),
  error: new Set(),
  dailyLimitReached: new Set(),
  'rate-increased': new Set(),
  'rewards-collected': new Set(),
  'rewards-error': new Set(),
  'twitch:not-live': new Set(),
  'youtube:not-live': new Set(),
  'kick:not-live': new Set(),
};

function setState(next: Partial<SocketState>) {
  state = { ...state, ...next };
  for (const listener of stateListeners) listener();
}

/** Opens (or keeps) the socket for this wallet; the handshake carries wallet and authToken. */
export function connectSocket(auth: { wallet: string; authToken: string }): void {
  if (socket && socketWallet === auth.wallet) return;
  closeSocket();
  let opened: AppSocket;
  try {
    opened = io({
      transports: ['websocket'],
      auth,
      reconnectionAttempts: SOCKET_RECONNECT.attempts,
      reconnectionDelay: SOCKET_RECONNECT.delayMs,
      reconnectionDelayMax: SOCKET_RECONNECT.delayMaxMs,
    });
  } catch {
    setState({ error: SOCKET_MESSAGES.initFailed });
    return;
  }
  socket = opened;
  socketWallet = auth.wallet;
  opened.on('connect', () => setState({ connected: true, error: null }));
  // On disconnect, room data, live flag, duration, mined amount and rate reset (docs/product.md#socket).
  opened.on('disconnect', () =>
    setState({
      connected: false,
      roomData: null,
      isLive: false,
      streamDuration: 0,
      minedAmount: 0,
      miningRate: 0,
    }),
  );
  // A refusal by the server (no beta access, an expired session, too many connections) says why in its data;
  // anything else (the server unreachable) is 'Failed to connect to server'
  // (docs/product.md#socket-and-streaming-messages).
  opened.on('connect_error', (err?: Error & { data?: { message?: unknown } }) => {
    const refused = err?.data?.message;
    setState({ connected: false, error: typeof refused === 'string' ? refused : SOCKET_CONNECT_FAILED });
  });
  reduceLiveState(opened);
  opened.onAny((event: ServerEventName, payload: ServerEventPayload<ServerEventName>) =>
    dispatch(event, payload),
  );
}

function dispatch<E extends ServerEventName>(event: E, payload: ServerEventPayload<E>): void {
  for (const listener of eventListeners[event] ?? []) listener(payload);
}

/** How each server event changes the live state (docs/product.md#socket, #rate-increase, #maintenance). */
function reduceLiveState(s: AppSocket): void {
  s.on('stream-started', (e) =>
    setState({
      isLive: true,
      error: null,
      miningRate: e.miningRate,
      platform: e.platform,
      currentDailyDuration: e.currentDailyDuration,
      nextRateIncrease: e.nextRateIncrease,
      streamDuration: 0,
      minedAmount: 0,
    }),
  );
  // An update is a live session's: after a reconnect (the API restarted, another instance took the session
  // over) the session carries on without a new stream-started, and the panel shows it live again.
  s.on('mining-update', (e) =>
    setState({
      isLive: true,
      streamDuration: e.duration,
      minedAmount: e.minedAmount,
      miningRate: e.miningRate,
      platform: e.platform,
      currentDailyDuration: e.currentDailyDuration,
    }),
  );
  s.on('stream-stopped', (e) =>
    setState({
      isLive: false,
      miningRate: 0,
      streamDuration: e.duration,
      minedAmount: e.amountMined,
      pendingReward: e.pendingReward,
    }),
  );
  s.on('room-data', (roomData) => setState({ roomData }));
  s.on('room-error', (e) => setState({ roomData: null, error: e.message || SOCKET_MESSAGES.roomError }));
  s.on('left-room', () => setState({ roomData: null }));
  s.on('error', (e) => setState({ error: e.message || SOCKET_MESSAGES.error }));
  s.on('rate-increased', (e) => setState({ miningRate: e.miningRate, nextRateIncrease: e.nextRateIncrease }));
  s.on('rewards-collected', () => setState({ pendingReward: 0 }));
  s.on('maintenance-starting', () => setState({ maintenance: true }));
  s.on('maintenance-ended', () => setState({ maintenance: false }));
}

/** The client events without an acknowledgement (join-room, start-stream, …). */
type PlainEventName = Exclude<ClientEventName, AcknowledgedEventName>;

/** Sends a client event on the app's socket; false when there is none. */
export function emitSocket<E extends PlainEventName>(event: E, payload: ClientEventPayload<E>): boolean;
export function emitSocket(event: PlainEventName, payload: ClientEventPayload<PlainEventName>): boolean {
  if (!socket) return false;
  // The overload above pairs each event with its payload; Socket.IO's emit checks one known name at a time.
  const wire: Socket = socket;
  wire.emit(event, payload);
  return true;
}

/**
 * The app's socket for a request the server acknowledges, waiting at most REQUEST_TIMEOUT_MS for the answer
 * (`requestSocket().emitWithAck('activate-tier', …)`, then `answerOf`); throws when there is no socket.
 * Typed as the socket without timeout: emitWithAck resolves with the answer either way (it rejects on the
 * timeout), and socket.io-client's timeout typing would make that answer `any`.
 */
export function requestSocket(): Pick<AppSocket, 'emitWithAck'> {
  if (!socket) throw new Error(SOCKET_CONNECT_FAILED);
  return socket.timeout(REQUEST_TIMEOUT_MS);
}

/** An acknowledgement's data, or its refusal thrown with the server's message. */
export function answerOf<T>(ack: Ack<T>): T {
  if ('error' in ack) throw new Error(ack.error || SOCKET_MESSAGES.error);
  return ack.data;
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

/**
 * Keeps the app's socket open for the signed-in wallet while the screen calling it is shown (the signed-in
 * screens, the admin console), and closes it when that screen goes. socket.io-client comes with those screens'
 * code, not with the wallet's (the sign-in does not wait for it).
 */
export function useAppSocket(wallet: string | null, token: string | null): void {
  useEffect(() => {
    if (wallet && token) connectSocket({ wallet, authToken: token });
  }, [wallet, token]);
  useEffect(() => closeSocket, []);
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
    const listener = (payload: ServerEventPayload<E>) => latest.current(payload);
    const set = eventListeners[event];
    set.add(listener);
    return () => {
      set.delete(listener);
    };
  }, [event]);
}
