// collect-rewards: exactly once, through the claim state machine (services/rewards/claims.ts); answered by
// ack and with rewards-collected (refusals: rewards-error, socket/refusals.ts).
import type { Logger } from '../logger.ts';
import type { Services } from '../services/index.ts';
import type { AppSocket } from './contract.ts';
import { handle } from './events.ts';

export function registerRewards(socket: AppSocket, services: Services, logger: Logger): void {
  handle(socket, logger, 'collect-rewards', async ({ signature }, wallet) => {
    const collected = await services.claims.collect(wallet, signature);
    socket.emit('rewards-collected', collected);
    return collected;
  });
}
