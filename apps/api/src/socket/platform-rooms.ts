// join-room / leave-room: the wallet's verified platform account and its live state.
import type { Logger } from '../logger.ts';
import type { Services } from '../services/index.ts';
import { listener, type SocketListener } from './events.ts';
import { isPlatformRoom } from './rooms.ts';

export function roomListeners(services: Services, logger: Logger): SocketListener[] {
  return [
    listener(logger, 'join-room', async ({ platform }, wallet, socket) => {
      const room = await services.engine.room(wallet, platform);
      await socket.join(room.room);
      socket.emit('joined-room', { platform, room: room.room });
      socket.emit('room-data', room);
    }),

    listener(logger, 'leave-room', async ({ platform }, wallet, socket) => {
      await services.engine.stopSession(wallet, 'left-room', platform);
      for (const room of socket.rooms) if (isPlatformRoom(room, platform)) await socket.leave(room);
      socket.emit('left-room', { platform });
    }),
  ];
}
