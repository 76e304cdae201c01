// The Socket.IO side of the mining engine: one room per wallet (every tab), handlers per event group.
import {
  SERVER_MESSAGES,
  type ServerEventName,
  type ServerEventPayload,
  type ServerToClientEvents,
} from '@strm/shared';
import type { Clock } from '../clock.ts';
import type { Config } from '../config.ts';
import type { Logger } from '../logger.ts';
import type { SessionControl, SessionControlAnswer } from '../services/mining/engine.ts';
import type { Services } from '../services/index.ts';
import type { AppServer, AppSocket } from './contract.ts';
import type { WalletEvents } from './engine-events.ts';
import { walletRoom } from './rooms.ts';
import { KeyedBuckets, TokenBucket } from './limits.ts';
import { encodeEvent } from './encoded-event.ts';
import { listen } from './events.ts';
import { miningListeners } from './mining.ts';
import { WalletOutlets } from './outlets.ts';
import { socketsIfOnlyHere } from './redis-adapter.ts';
import { rewardListeners } from './rewards.ts';
import { roomListeners } from './platform-rooms.ts';
import { tierListeners } from './tiers.ts';

/** setTimeout's longest delay; a token valid longer is checked again then. */
const MAX_TIMER_MS = 2 ** 31 - 1;
/** A socket over its event limit is told so at most this often (the flood itself is dropped silently). */
const LIMIT_NOTICE_MS = 1000;

/** Between instances: a request on a live session, for the instance that owns it (cluster.test.ts). */
const SESSION_CONTROL = 'strm:session-control';
/** The adapter gives up after 5 s; this bounds the wait where there is no adapter to answer at all. */
const SESSION_CONTROL_TIMEOUT_MS = 6000;

/** How the engine's events (socket/engine-events.ts) reach a wallet's sockets, and other instances. */
export function socketEvents(io: AppServer): WalletEvents {
  const outlets = new WalletOutlets(io);
  return {
    outlet: (wallet) => outlets.outlet(wallet),
    toWallet<E extends ServerEventName>(wallet: string, event: E, payload: ServerEventPayload<E>) {
      const room = walletRoom(wallet);
      // Socket.IO's typed emit takes one known event name, not a generic one: TypeScript cannot see that
      // this payload is the event's parameter list, which EngineEvents' signature already guarantees.
      const args = [payload] as Parameters<ServerToClientEvents[E]>;
      // mining-update, every live wallet's event each interval, goes straight to the sockets here when the
      // wallet has none on another instance (always with one instance, no Redis); the rest, rare and not to be
      // missed, always through the adapter.
      if (event === 'mining-update') {
        // Encoded once and written to each socket here, as a wallet's outlet does (outlets.ts): no broadcast
        // operator, adapter pass or room filter per update.
        const here = socketsIfOnlyHere(io, room);
        if (here) {
          const encoded = encodeEvent(event, payload);
          for (const id of here) {
            const socket = io.sockets.sockets.get(id);
            if (socket) encoded.writeTo(socket);
          }
          return;
        }
      }
      io.to(room).emit(event, ...args);
    },
    // Asked when the wallet has no socket here: with the Redis adapter this reaches every instance.
    async connectedElsewhere(wallet: string) {
      return (await io.in(walletRoom(wallet)).fetchSockets()).length > 0;
    },
    // Every instance hears it through the Redis adapter; only the owner answers with more than null. A
    // late or missing instance does not lose the owner's answer (the adapter hands over what arrived).
    toInstance(owner: string, request: SessionControl) {
      return new Promise<SessionControlAnswer | null>((resolve, reject) => {
        const timer = setTimeout(() => resolve(null), SESSION_CONTROL_TIMEOUT_MS);
        const ack = (_err: Error | null, responses: unknown[]) => {
          clearTimeout(timer);
          const answer = (responses ?? []).find((r) => r != null);
          resolve((answer as SessionControlAnswer | undefined) ?? null);
        };
        // Straight to the adapter, whose promise io.serverSideEmit drops: with Redis away it rejects (it
        // counts the servers first), which must reach the caller, not the process.
        Promise.resolve()
          .then(() => io.of('/').adapter.serverSideEmit([SESSION_CONTROL, owner, request, ack]))
          .catch((err: unknown) => {
            clearTimeout(timer);
            reject(err);
          });
      });
    },
  };
}

export interface SocketDeps {
  config: Pick<Config, 'sockets'>;
  clock: Clock;
  logger: Logger;
}

/**
 * Client events pass a bucket of the socket's and one of its wallet's (all its sockets here); an event
 * over either limit is dropped before it is parsed, and the socket is told with an `error` event.
 */
function limitEvents(socket: AppSocket, wallet: string, perWallet: KeyedBuckets, deps: SocketDeps): void {
  const own = new TokenBucket(deps.config.sockets.socketEvents);
  let toldAtMs = Number.NEGATIVE_INFINITY;
  socket.use(([event, ...args], next) => {
    if (own.take() && perWallet.take(wallet)) {
      next();
      return;
    }
    // A request waiting for its acknowledgement is answered, not left to time out.
    const ack = args.at(-1);
    if (typeof ack === 'function') ack({ error: SERVER_MESSAGES.tooManyRequests });
    const now = performance.now();
    if (now - toldAtMs >= LIMIT_NOTICE_MS) {
      toldAtMs = now;
      socket.emit('error', { message: SERVER_MESSAGES.tooManyRequests, event: String(event) });
    }
  });
}

/** Closes the socket when its token expires, telling the client why first. */
function closeAtExpiry(socket: AppSocket, deps: SocketDeps): void {
  const { expiresAtMs } = socket.data;
  let timer: NodeJS.Timeout | undefined;
  const arm = () => {
    const left = expiresAtMs - deps.clock.now().getTime();
    if (left > MAX_TIMER_MS) {
      timer = setTimeout(arm, MAX_TIMER_MS);
      return;
    }
    // In whole seconds (at most one late): Node keeps one timer list per distinct delay, and sockets of
    // tokens issued at different milliseconds each made their own (10,000 lists at 10,000 live sessions).
    timer = setTimeout(
      () => {
        socket.emit('error', { message: SERVER_MESSAGES.sessionExpired });
        socket.disconnect();
      },
      Math.max(0, Math.ceil(left / 1000) * 1000),
    );
  };
  arm();
  socket.once('disconnect', () => clearTimeout(timer));
}

/** Registers the handlers on every authenticated connection (the handshake middleware runs first). */
export function registerMiningSockets(io: AppServer, services: Services, deps: SocketDeps): void {
  const { logger } = deps;
  const perWallet = new KeyedBuckets(deps.config.sockets.walletEvents);
  // Made once, shared by every socket (each is called with its socket).
  const listeners = [
    ...roomListeners(services, logger),
    ...miningListeners(services, logger),
    ...tierListeners(services, logger),
    ...rewardListeners(services, logger),
  ];
  io.on(SESSION_CONTROL, (owner, request, ack) => {
    services.engine
      .controlForwarded(owner, request)
      .then(ack, (err: unknown) => {
        logger.error({ err, kind: request.kind }, 'a forwarded session request failed');
        ack(null);
      })
      .catch((err: unknown) => logger.error({ err }, 'answering a forwarded session request failed'));
  });
  io.on('connection', (socket) => {
    const { wallet } = socket.data;
    limitEvents(socket, wallet, perWallet, deps);
    closeAtExpiry(socket, deps);
    void socket.join(walletRoom(wallet));
    services.engine.socketConnected(wallet);
    socket.on('disconnect', () => services.engine.socketDisconnected(wallet));
    listen(socket, listeners);
  });
}
