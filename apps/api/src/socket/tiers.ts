// activate-tier / deactivate-tier: verified on chain, recorded once per signature.
import { SERVER_MESSAGES } from '@strm/shared';
import type { Socket } from 'socket.io';
import { isDatabaseUnavailable } from '../db/unavailable.ts';
import type { Logger } from '../logger.ts';
import type { Mining } from '../services/mining/index.ts';
import { TierActionError } from '../services/tier-actions.ts';
import { emit, handle, SocketRefusal } from './events.ts';

const tierRefusal = (err: unknown) => {
  if (err instanceof TierActionError) return new SocketRefusal('tier-error', err.message);
  if (isDatabaseUnavailable(err)) return new SocketRefusal('tier-error', SERVER_MESSAGES.databaseUnavailable);
  return undefined;
};

export function registerTiers(socket: Socket, mining: Mining, logger: Logger): void {
  handle(
    socket,
    logger,
    'activate-tier',
    async ({ signature, tier }, wallet) => {
      emit(socket, 'tier-activated', await mining.tierActions.activate(wallet, signature, tier));
    },
    tierRefusal,
  );
  handle(
    socket,
    logger,
    'deactivate-tier',
    async ({ signature, tier }, wallet) => {
      emit(socket, 'tier-deactivated', await mining.tierActions.deactivate(wallet, signature, tier));
    },
    tierRefusal,
  );
}
