// collect-rewards: exactly once, through the claim state machine (services/rewards/claims.ts).
import { SERVER_MESSAGES } from '@strm/shared';
import { isDatabaseUnavailable } from '../db/unavailable.ts';
import type { Logger } from '../logger.ts';
import type { Mining } from '../services/mining/index.ts';
import { RewardsError } from '../services/rewards/claims.ts';
import type { AppSocket } from './contract.ts';
import { handle, SocketRefusal } from './events.ts';

export function registerRewards(socket: AppSocket, mining: Mining, logger: Logger): void {
  handle(
    socket,
    logger,
    'collect-rewards',
    async ({ signature }, wallet) => {
      const collected = await mining.claims.collect(wallet, signature);
      socket.emit('rewards-collected', collected);
      return collected;
    },
    (err) =>
      new SocketRefusal(
        'rewards-error',
        err instanceof RewardsError
          ? err.message
          : isDatabaseUnavailable(err)
            ? SERVER_MESSAGES.databaseUnavailable
            : SERVER_MESSAGES.payoutFailed,
      ),
  );
}
