// activate-tier / deactivate-tier: verified on chain, recorded once per signature; answered by ack and
// with tier-activated / tier-deactivated (refusals: tier-error, socket/refusals.ts).
import type { Logger } from '../logger.ts';
import type { Services } from '../services/index.ts';
import type { AppSocket } from './contract.ts';
import { handle } from './events.ts';

export function registerTiers(socket: AppSocket, services: Services, logger: Logger): void {
  handle(socket, logger, 'activate-tier', async ({ signature, tier }, wallet) => {
    const activated = await services.tierActions.activate(wallet, signature, tier);
    socket.emit('tier-activated', activated);
    return activated;
  });
  handle(socket, logger, 'deactivate-tier', async ({ signature, tier }, wallet) => {
    const deactivated = await services.tierActions.deactivate(wallet, signature, tier);
    socket.emit('tier-deactivated', deactivated);
    return deactivated;
  });
}
