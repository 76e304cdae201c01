// The Socket.IO side of the mining engine: one room per wallet (every tab), handlers per event group.
import type { ServerEventName, ServerEventPayload } from '@strm/shared';
import type { Server } from 'socket.io';
import type { PrismaClient } from '../db/index.ts';
import type { Logger } from '../logger.ts';
import type { EngineEvents } from '../services/mining/engine.ts';
import type { Mining } from '../services/mining/index.ts';
import { walletOfSocket } from './events.ts';
import { registerMining } from './mining.ts';
import { registerRewards } from './rewards.ts';
import { registerRooms } from './rooms.ts';
import { registerTiers } from './tiers.ts';

const walletRoom = (wallet: string) => `wallet:${wallet}`;

/** How the engine reaches a wallet's sockets. */
export function socketEvents(io: Server): EngineEvents {
  return {
    toWallet<E extends ServerEventName>(wallet: string, event: E, payload: ServerEventPayload<E>) {
      io.to(walletRoom(wallet)).emit(event, payload);
    },
    // Asked when the wallet has no socket here: with the Redis adapter this reaches every instance.
    async connectedElsewhere(wallet: string) {
      return (await io.in(walletRoom(wallet)).fetchSockets()).length > 0;
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
