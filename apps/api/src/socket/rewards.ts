// collect-rewards: exactly once, through the claim state machine (services/rewards/claims.ts); answered by
// ack and with rewards-collected (refusals: rewards-error, socket/refusals.ts).
import type { Logger } from '../logger.ts';
import type { Services } from '../services/index.ts';
import { listener, type SocketListener } from './events.ts';

export function rewardListeners(services: Services, logger: Logger): SocketListener[] {
  return [
    listener(logger, 'collect-rewards', async ({ signature }, wallet, socket) => {
      const collected = await services.claims.collect(wallet, signature);
      socket.emit('rewards-collected', collected);
      return collected;
    }),
  ];
}
