// activate-tier / deactivate-tier: verified on chain, recorded once per signature.
import { SERVER_MESSAGES } from '@strm/shared';
import { isDatabaseUnavailable } from '../db/unavailable.ts';
import type { Logger } from '../logger.ts';
import type { Mining } from '../services/mining/index.ts';
import { TierActionError } from '../services/tier-actions.ts';
import type { AppSocket } from './contract.ts';
import { handle, SocketRefusal } from './events.ts';

const tierRefusal = (err: unknown) => {
  if (err instanceof TierActionError) return new SocketRefusal('tier-error', err.message);
  if (isDatabaseUnavailable(err)) return new SocketRefusal('tier-error', SERVER_MESSAGES.databaseUnavailable);
  return undefined;
};

export function registerTiers(socket: AppSocket, mining: Mining, logger: Logger): void {
  handle(
    socket,
    logger,
    'activate-tier',
    async ({ signature, tier }, wallet) => {
      const activated = await mining.tierActions.activate(wallet, signature, tier);
      socket.emit('tier-activated', activated);
      return activated;
    },
    tierRefusal,
  );
  handle(
    socket,
    logger,
    'deactivate-tier',
    async ({ signature, tier }, wallet) => {
      const deactivated = await mining.tierActions.deactivate(wallet, signature, tier);
      socket.emit('tier-deactivated', deactivated);
      return deactivated;
    },
    tierRefusal,
  );
}
