// join-room / leave-room: the wallet's verified platform account and its live state.
import type { Logger } from '../logger.ts';
import type { Services } from '../services/index.ts';
import type { AppSocket } from './contract.ts';
import { handle } from './events.ts';
import { isPlatformRoom } from './rooms.ts';

export function registerRooms(socket: AppSocket, services: Services, logger: Logger): void {
  handle(socket, logger, 'join-room', async ({ platform }, wallet) => {
    const room = await services.engine.room(wallet, platform);
    await socket.join(room.room);
    socket.emit('joined-room', { platform, room: room.room });
    socket.emit('room-data', room);
  });

  handle(socket, logger, 'leave-room', async ({ platform }, wallet) => {
    await services.engine.stopSession(wallet, 'left-room', platform);
    for (const room of socket.rooms) if (isPlatformRoom(room, platform)) await socket.leave(room);
    socket.emit('left-room', { platform });
  });
}
