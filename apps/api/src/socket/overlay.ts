// The overlays' read-only Socket.IO namespace. An overlay connects with `auth: { overlayToken }`
// (never a session token), joins its wallet's overlay room and its link's room, and receives what the
// overlay feed publishes; every event it sends is refused (it may read, never act).
import {
  OVERLAY_EVENTS,
  OVERLAY_MESSAGES,
  OVERLAY_NAMESPACE,
  type OverlayServerEvents,
  type OverlayState,
  type OverlayUpdate,
  SERVER_MESSAGES,
} from '@strm/shared';
import type { Namespace, Socket } from 'socket.io';
import type { Config } from '../config.ts';
import { DomainError } from '../errors.ts';
import type { Logger } from '../logger.ts';
import { type AccessControl, accessRequired } from '../services/access.ts';
import type { ServiceOutputs } from '../services/index.ts';
import type { OverlayPublisher } from '../services/overlay/feed.ts';
import type { OverlayService } from '../services/overlay/index.ts';
import type { Store } from 'express-rate-limit';
import { addressLimiter, SocketCounts, TokenBucket } from './limits.ts';
import { connectRefusal } from './refusals.ts';
import { clientAddress } from './client-address.ts';
import type { AppServer, InterServerEvents } from './contract.ts';
import { overlayLinkRoom, overlayRoom } from './rooms.ts';

/** Overlays of one wallet connected to one instance (a streamer's scenes may each hold one). */
const OVERLAYS_PER_WALLET = 20;

interface OverlaySocketData {
  overlay: { wallet: string; tokenHash: string; expiresInMs: number };
}

type OverlayNamespace = Namespace<
  Record<never, never>,
  OverlayServerEvents,
  InterServerEvents,
  OverlaySocketData
>;
type OverlaySocket = Socket<Record<never, never>, OverlayServerEvents, InterServerEvents, OverlaySocketData>;

/**
 * The overlay namespace with its own events and socket data. Socket.IO types every namespace of a server
 * with the server's maps (io.of), so this one is declared here, its only place.
 */
const overlayNamespace = (io: AppServer) => io.of(OVERLAY_NAMESPACE) as unknown as OverlayNamespace;

function publisher(nsp: OverlayNamespace, clustered: boolean): OverlayPublisher {
  return {
    // Without Redis every overlay is here; with it, one may be on another instance (the adapter relays).
    // Asked for every wallet event (each live wallet's update every interval): no room name is built while
    // no overlay is connected here at all.
    mayHaveWatchers: (wallet) =>
      clustered || (nsp.adapter.rooms.size > 0 && nsp.adapter.rooms.has(overlayRoom(wallet))),
    state: (wallet: string, state: OverlayState) =>
      nsp.to(overlayRoom(wallet)).emit(OVERLAY_EVENTS.state, state),
    update: (wallet: string, update: OverlayUpdate) =>
      nsp.to(overlayRoom(wallet)).emit(OVERLAY_EVENTS.update, update),
  };
}

/** What the overlay service sends through this namespace: its feed's events, and an ended link's notice. */
export function overlayOutputs(io: AppServer, clustered: boolean): ServiceOutputs['overlays'] {
  const nsp = overlayNamespace(io);
  return {
    publisher: publisher(nsp, clustered),
    linkEnded: (_wallet, tokenHash) => {
      nsp.to(overlayLinkRoom(tokenHash)).emit(OVERLAY_EVENTS.revoked, { message: OVERLAY_MESSAGES.revoked });
      nsp.in(overlayLinkRoom(tokenHash)).disconnectSockets();
    },
  };
}

/** The namespace's handshake and connections. */
export function registerOverlaySockets(
  io: AppServer,
  service: OverlayService,
  deps: {
    config: Pick<Config, 'sockets'>;
    logger: Logger;
    access: AccessControl;
    /** Where handshakes are counted with the other instances (REDIS_URL); else here. */
    store?: Store | undefined;
  },
): void {
  const nsp = overlayNamespace(io);
  const { handshakesPerMinute } = deps.config.sockets;
  const perAddress = addressLimiter(handshakesPerMinute, deps.store);
  const counts = new SocketCounts(OVERLAYS_PER_WALLET);
  nsp.use(async (socket, next) => {
    try {
      if (!(await perAddress.take(clientAddress(socket)))) {
        throw new DomainError('rate_limited', SERVER_MESSAGES.tooManyConnectionAttempts);
      }
      const opened = await service.openedBy(
        (socket.handshake.auth as { overlayToken?: unknown })?.overlayToken,
      );
      if (!opened) throw new DomainError('invalid_overlay_token', OVERLAY_MESSAGES.invalidToken);
      if (!(await deps.access.allowed(opened.wallet))) throw accessRequired();
      if (!counts.admit(opened.wallet)) {
        throw new DomainError('too_many_connections', SERVER_MESSAGES.tooManyConnections);
      }
      let counted = true;
      const release = () => {
        if (counted) counts.release(opened.wallet);
        counted = false;
      };
      socket.once('disconnect', release);
      socket.conn.once('close', release);
      socket.data.overlay = opened;
      next();
    } catch (err) {
      next(connectRefusal(err, deps.logger, 'overlay handshake'));
    }
  });
  nsp.on('connection', (socket) => void connected(socket, service, deps));
  // A wallet whose access is revoked keeps nothing: its overlays connected here are told and disconnected
  // (every instance hears the change); its public card is forgotten by the service (services/index.ts).
  deps.access.onChange((wallet) => {
    if (!nsp.adapter.rooms.has(overlayRoom(wallet))) return;
    deps.access
      .allowedNow(wallet)
      .then((allowed) => {
        if (allowed) return;
        nsp.local
          .to(overlayRoom(wallet))
          .emit(OVERLAY_EVENTS.revoked, { message: SERVER_MESSAGES.accessRevoked });
        nsp.local.in(overlayRoom(wallet)).disconnectSockets();
      })
      .catch((err: unknown) => deps.logger.warn({ err, wallet }, 'overlay access check failed'));
  });
}

async function connected(
  socket: OverlaySocket,
  service: OverlayService,
  deps: { config: Pick<Config, 'sockets'>; logger: Logger },
) {
  const { wallet, tokenHash, expiresInMs } = socket.data.overlay;
  // A link that expires while its overlay is connected ends then (a timer beyond setTimeout's range is left
  // to the next handshake, within 25 days of a reconnect).
  if (expiresInMs < 2 ** 31 - 1) {
    const timer = setTimeout(() => {
      socket.emit(OVERLAY_EVENTS.revoked, { message: OVERLAY_MESSAGES.expired });
      socket.disconnect();
    }, expiresInMs);
    timer.unref();
    socket.once('disconnect', () => clearTimeout(timer));
  }
  // Read-only: whatever it sends is refused (told at most as often as its event limit allows).
  const bucket = new TokenBucket(deps.config.sockets.socketEvents);
  socket.use(([event], _next) => {
    if (bucket.take()) socket.emit('error', { message: OVERLAY_MESSAGES.readOnly, event: String(event) });
  });
  await socket.join([overlayRoom(wallet), overlayLinkRoom(tokenHash)]);
  try {
    // Read after joining: a link ended between the handshake and the join is caught here.
    const state = await service.stateOf(wallet, tokenHash);
    if (!state) {
      socket.emit(OVERLAY_EVENTS.revoked, { message: OVERLAY_MESSAGES.revoked });
      socket.disconnect();
      return;
    }
    socket.emit(OVERLAY_EVENTS.state, state);
  } catch (err) {
    // Dropped: the overlay connects again (after a pause) and reads it then.
    deps.logger.warn({ err, wallet }, 'overlay state could not be read at connect');
    socket.disconnect();
  }
}
