// The demo platform's account (local configurations only): created verified under the username asked for,
// unless another wallet's verified demo account has it.
import type { Clock } from '../../clock.ts';
import { DomainError } from '../../errors.ts';
import type { StreamerStore } from '../streamer/store.ts';

export interface DemoAccountDeps {
  streamers: StreamerStore;
  clock: Clock;
}

/** The wallet's demo account, verified now under `username` (a leading @ dropped). */
export async function createDemoAccount(deps: DemoAccountDeps, wallet: string, username: string) {
  const name = username.replace(/^@/, '');
  await deps.streamers.ensureStreamer(wallet);
  if (await deps.streamers.verifiedElsewhere('demo', name, wallet)) {
    throw new DomainError('username_taken', 'This demo username belongs to another wallet');
  }
  return deps.streamers.saveVerified(wallet, 'demo', name, deps.clock.now());
}

/** The wallet's verified demo account (404 before it made one). */
export async function verifiedDemoAccount(deps: Pick<DemoAccountDeps, 'streamers'>, wallet: string) {
  const account = await deps.streamers.account(wallet, 'demo');
  if (!account?.isVerified) throw new DomainError('not_found', 'Create your demo account first');
  return account;
}
