// The Socket.IO side of the mining engine: one room per wallet (every tab), handlers per event group.
import type { ServerEventName, ServerEventPayload } from '@strm/shared';
import type { Server } from 'socket.io';
import type { PrismaClient } from '../db/index.ts';
import type { Logger } from '../logger.ts';
import type { EngineEvents, SessionControl, SessionControlAnswer } from '../services/mining/engine.ts';
import type { Mining } from '../services/mining/index.ts';
import { walletOfSocket } from './events.ts';
import { registerMining } from './mining.ts';
import { onlyHere } from './redis-adapter.ts';
import { registerRewards } from './rewards.ts';
import { registerRooms } from './rooms.ts';
import { registerTiers } from './tiers.ts';

const walletRoom = (wallet: string) => `wallet:${wallet}`;

/** Between instances: a request on a live session, for the instance that owns it (cluster.test.ts). */
const SESSION_CONTROL = 'strm:session-control';
/** The adapter gives up after 5 s; this bounds the wait where there is no adapter to answer at all. */
const SESSION_CONTROL_TIMEOUT_MS = 6000;

/** How the engine reaches a wallet's sockets. */
export function socketEvents(io: Server): EngineEvents {
  return {
    toWallet<E extends ServerEventName>(wallet: string, event: E, payload: ServerEventPayload<E>) {
      const room = walletRoom(wallet);
      // mining-update, every live wallet's event each interval, goes straight to the sockets here when the
      // wallet has none on another instance; the rest, rare and not to be missed, always through the adapter.
      if (event === 'mining-update' && onlyHere(io, room)) io.local.to(room).emit(event, payload);
      else io.to(room).emit(event, payload);
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

/** Registers the handlers on every authenticated connection (the handshake middleware runs first). */
export function registerMiningSockets(
  io: Server,
  mining: Mining,
  prisma: PrismaClient,
  logger: Logger,
): void {
  io.on(
    SESSION_CONTROL,
    (owner: string, request: SessionControl, ack: (answer: SessionControlAnswer | null) => void) => {
      void mining.engine.controlForwarded(owner, request).then(ack, (err: unknown) => {
        logger.error({ err, kind: request.kind }, 'a forwarded session request failed');
        ack(null);
      });
    },
  );
  io.on('connection', (socket) => {
    const wallet = walletOfSocket(socket);
    void socket.join(walletRoom(wallet));
    mining.engine.socketConnected(wallet);
    socket.on('disconnect', () => mining.engine.socketDisconnected(wallet));
    registerRooms(socket, mining, logger);
    registerMining(socket, mining, prisma, logger);
    registerTiers(socket, mining, logger);
    registerRewards(socket, mining, logger);
  });
}
