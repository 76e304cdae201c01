// start-stream / stop-stream / increase-rate. The engine decides; this only maps.
import { fromBaseUnits, SERVER_MESSAGES } from '@strm/shared';
import { DomainError } from '../errors.ts';
import type { Logger } from '../logger.ts';
import type { Services } from '../services/index.ts';
import { listener, type SocketListener } from './events.ts';
import { walletRoom } from './rooms.ts';

export function miningListeners(services: Services, logger: Logger): SocketListener[] {
  return [
    listener(logger, 'start-stream', async ({ platform, username }, wallet, socket) => {
      // The handshake admitted the socket; a session is only started for access the database has now.
      if (!(await services.access.allowedNow(wallet)))
        throw new DomainError('beta_access_required', SERVER_MESSAGES.betaAccessRequired);
      const started = await services.engine.startSession({ wallet, platform, username });
      // Every tab of the wallet learns that it is live.
      socket.nsp.to(walletRoom(wallet)).emit('stream-started', started);
    }),

    listener(logger, 'stop-stream', async (_payload, wallet, socket) => {
      if (await services.engine.stopSession(wallet, 'stopped')) return;
      // Not live (e.g. leave-room already stopped it): answer with the state, not an error banner.
      socket.emit('stream-stopped', {
        duration: 0,
        amountMined: 0,
        pendingReward: fromBaseUnits(await services.streamers.pendingRewardUnits(wallet)),
        reason: 'stopped',
      });
    }),

    listener(logger, 'increase-rate', async (_payload, wallet, socket) => {
      const increased = await services.engine.increaseRate(wallet);
      socket.emit('rate-increased', increased);
    }),
  ];
}
