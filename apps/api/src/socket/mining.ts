// start-stream / stop-stream / increase-rate. The engine decides; this only maps.
import { fromBaseUnits, SERVER_MESSAGES } from '@strm/shared';
import { DomainError } from '../errors.ts';
import type { Logger } from '../logger.ts';
import type { AccessControl } from '../services/access.ts';
import type { Mining } from '../services/mining/index.ts';
import type { AppSocket } from './contract.ts';
import { handle } from './events.ts';

export function registerMining(
  socket: AppSocket,
  mining: Mining,
  logger: Logger,
  access: AccessControl,
): void {
  handle(socket, logger, 'start-stream', async ({ platform, username }, wallet) => {
    // The handshake admitted the socket; a session is only started for access the database has now.
    if (!(await access.allowedNow(wallet)))
      throw new DomainError('beta_access_required', SERVER_MESSAGES.betaAccessRequired);
    const started = await mining.engine.startSession({ wallet, platform, username });
    // Every tab of the wallet learns that it is live.
    socket.nsp.to(`wallet:${wallet}`).emit('stream-started', started);
  });

  handle(socket, logger, 'stop-stream', async (_payload, wallet) => {
    if (await mining.engine.stopSession(wallet, 'stopped')) return;
    // Not live (e.g. leave-room already stopped it): answer with the state, not an error banner.
    socket.emit('stream-stopped', {
      duration: 0,
      amountMined: 0,
      pendingReward: fromBaseUnits(await mining.streamers.pendingRewardUnits(wallet)),
      reason: 'stopped',
    });
  });

  handle(socket, logger, 'increase-rate', async (_payload, wallet) => {
    const increased = await mining.engine.increaseRate(wallet);
    socket.emit('rate-increased', increased);
  });
}
