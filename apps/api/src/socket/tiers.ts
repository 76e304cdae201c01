// activate-tier / deactivate-tier: verified on chain, recorded once per signature; answered by ack and
// with tier-activated / tier-deactivated (refusals: tier-error, socket/refusals.ts).
import type { Logger } from '../logger.ts';
import type { Services } from '../services/index.ts';
import { listener, type SocketListener } from './events.ts';

export function tierListeners(services: Services, logger: Logger): SocketListener[] {
  return [
    listener(logger, 'activate-tier', async ({ signature, tier }, wallet, socket) => {
      const activated = await services.tierActions.activate(wallet, signature, tier);
      socket.emit('tier-activated', activated);
      return activated;
    }),
    listener(logger, 'deactivate-tier', async ({ signature, tier }, wallet, socket) => {
      const deactivated = await services.tierActions.deactivate(wallet, signature, tier);
      socket.emit('tier-deactivated', deactivated);
      return deactivated;
    }),
  ];
}
