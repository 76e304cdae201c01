// start-stream / stop-stream / increase-rate. The engine decides; this only maps.
import { fromBaseUnits, SERVER_MESSAGES } from '@strm/shared';
import type { Logger } from '../logger.ts';
import type { AccessControl } from '../services/access.ts';
import { MiningError, type MiningRefusal } from '../services/mining/engine.ts';
import type { Mining } from '../services/mining/index.ts';
import type { AppSocket } from './contract.ts';
import { handle, SocketRefusal } from './events.ts';

/** Each kind of the engine's refusals, as the event its client is answered with. */
const REFUSAL_EVENT: Record<MiningRefusal, SocketRefusal['event']> = {
  room: 'room-error',
  request: 'error',
  'daily-limit': 'dailyLimitReached',
  'twitch-not-live': 'twitch:not-live',
};

export function miningRefusal(err: unknown): SocketRefusal | undefined {
  if (err instanceof MiningError) {
    return new SocketRefusal(
      REFUSAL_EVENT[err.refusal],
      err.message,
      err.refusal === 'daily-limit' ? { currentDailyDuration: err.currentDailyDuration } : {},
    );
  }
  return undefined;
}

export function registerMining(
  socket: AppSocket,
  mining: Mining,
  logger: Logger,
  access: AccessControl,
): void {
  handle(
    socket,
    logger,
    'start-stream',
    async ({ platform, username }, wallet) => {
      // The handshake admitted the socket; a session is only started for access the database has now.
      if (!(await access.allowedNow(wallet)))
        throw new SocketRefusal('error', SERVER_MESSAGES.betaAccessRequired);
      const started = await mining.engine.startSession({ wallet, platform, username });
      // Every tab of the wallet learns that it is live.
      socket.nsp.to(`wallet:${wallet}`).emit('stream-started', started);
    },
    (err) => miningRefusal(err),
  );

  handle(
    socket,
    logger,
    'stop-stream',
    async (_payload, wallet) => {
      if (await mining.engine.stopSession(wallet, 'stopped')) return;
      // Not live (e.g. leave-room already stopped it): answer with the state, not an error banner.
      socket.emit('stream-stopped', {
        duration: 0,
        amountMined: 0,
        pendingReward: fromBaseUnits(await mining.streamers.pendingRewardUnits(wallet)),
        reason: 'stopped',
      });
    },
    (err) => miningRefusal(err),
  );

  handle(
    socket,
    logger,
    'increase-rate',
    async (_payload, wallet) => {
      const increased = await mining.engine.increaseRate(wallet);
      socket.emit('rate-increased', increased);
    },
    (err) => miningRefusal(err),
  );
}
