// The demo platform's account (local configurations only): created verified under the username asked for,
// unless another wallet's verified demo account has it.
import type { Clock } from '../clock.ts';
import { DomainError } from '../errors.ts';
import type { StreamerRepository } from '../db/streamer-repository.ts';

export interface DemoAccountDeps {
  streamers: StreamerRepository;
  clock: Clock;
  /** Whether the wallet has a live session (on any instance). */
  isLive?(wallet: string): Promise<boolean>;
}

export const renameWhileLive = 'Stop your stream before renaming your demo account';

/** The wallet's demo account, verified now under `username` (a leading @ dropped). */
export async function createDemoAccount(deps: DemoAccountDeps, wallet: string, username: string) {
  const name = username.replace(/^@/, '');
  // As on the real platforms, a channel is not renamed while it streams: the session runs under its name,
  // and a name freed mid-stream could be verified and streamed by another wallet at the same time.
  const current = await deps.streamers.account(wallet, 'demo');
  if (
    current?.isVerified &&
    current.username.toLowerCase() !== name.toLowerCase() &&
    (await deps.isLive?.(wallet))
  ) {
    throw new DomainError('streamer_live', renameWhileLive);
  }
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
