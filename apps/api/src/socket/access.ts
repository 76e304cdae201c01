// A wallet that loses its beta access loses it everywhere at once: its live session ends (credited up to
// that moment, reason `access-revoked`), each of its sockets is told why (`error`) and disconnected, and
// its next handshake is refused. An admin's change through the API does this across instances (the
// engine's stop reaches the session's owner; the Redis adapter reaches every instance's sockets). Every
// change, the CLI's included, is also announced on PostgreSQL's ACCESS_CHANNEL: each instance forgets
// what it kept about the wallet and ends what it runs for it.
import { SERVER_MESSAGES } from '@strm/shared';
import { performance } from 'node:perf_hooks';
import { type ChannelListener, listenToChannel } from '../db/listen.ts';
import type { Logger } from '../logger.ts';
import { ACCESS_CHANNEL } from '../services/access.ts';
import type { Services } from '../services/index.ts';
import { walletRoom } from './rooms.ts';
import type { AppServer } from './contract.ts';

/** How long an instance waits for a session another instance runs to close before closing the sockets. */
const SESSION_CLOSE_WAIT_MS = 10_000;
const SESSION_CLOSE_POLL_MS = 100;

/**
 * Ends the wallet's session wherever it runs (its owner stops it; one left by a dead instance is taken over
 * and stopped), then tells every socket of the wallet, on every instance, why and disconnects them.
 */
export function endAccessEverywhere(io: AppServer, services: Services, wallet: string): Promise<void> {
  return oneAtATime(io, wallet, async () => {
    await services.engine.stopSession(wallet, 'access-revoked');
    const room = walletRoom(wallet);
    io.to(room).emit('error', { message: SERVER_MESSAGES.accessRevoked });
    io.in(room).disconnectSockets();
  });
}

const endings = new WeakMap<AppServer, Map<string, Promise<void>>>();

/**
 * The admin API's ending and the notification's run one after the other for a wallet on an instance: the
 * second then finds the session closed instead of stopping it while the first is writing its close.
 */
function oneAtATime(io: AppServer, wallet: string, run: () => Promise<void>): Promise<void> {
  let running = endings.get(io);
  if (!running) {
    running = new Map();
    endings.set(io, running);
  }
  const mine = (running.get(wallet) ?? Promise.resolve()).catch(() => {}).then(run);
  running.set(wallet, mine);
  const forget = () => {
    if (running.get(wallet) === mine) running.delete(wallet);
  };
  mine.then(forget, forget);
  return mine;
}

/**
 * The same for what this instance runs (every instance hears the notification): a session here is stopped;
 * one that runs elsewhere, or whose close is being written, is waited for (its owner stops it), so the
 * sockets here hear its stream-stopped before they close.
 */
function endAccessHere(io: AppServer, services: Services, wallet: string): Promise<void> {
  return oneAtATime(io, wallet, () => endHere(io, services, wallet));
}

async function endHere(io: AppServer, services: Services, wallet: string): Promise<void> {
  const { engine } = services;
  if (engine.isLive(wallet)) await engine.stopSession(wallet, 'access-revoked');
  const deadline = performance.now() + SESSION_CLOSE_WAIT_MS;
  while ((await engine.liveAnywhere(wallet)) && performance.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, SESSION_CLOSE_POLL_MS));
  }
  const room = walletRoom(wallet);
  io.local.to(room).emit('error', { message: SERVER_MESSAGES.accessRevoked });
  io.local.in(room).disconnectSockets();
}

/** Listens on ACCESS_CHANNEL (reconnecting when the database drops the connection) until stopped. */
export async function watchAccess(
  databaseUrl: string,
  io: AppServer,
  services: Services,
  logger: Logger,
): Promise<ChannelListener> {
  const { access } = services;
  const onChange = async (wallet: string) => {
    access.forget(wallet);
    if (!(await access.allowedNow(wallet))) await endAccessHere(io, services, wallet);
  };
  // While the connection is down changes are missed: kept answers expire within a minute, and sessions
  // and payouts check the database itself.
  return listenToChannel(
    databaseUrl,
    ACCESS_CHANNEL,
    (wallet) => {
      onChange(wallet).catch((err: unknown) => logger.error({ err, wallet }, 'access change handler failed'));
    },
    logger,
  );
}
