// The Socket.IO handshake: `auth: { wallet, authToken }` must carry a valid session token whose wallet
// is `wallet` (when given). Anything else is refused at connect with `connect_error` whose message is the
// API's error message and whose `data` is `{ error, message }`. Event handlers behind it read the
// wallet from `socket.data.wallet`, never from a payload.
import { SERVER_MESSAGES } from '@strm/shared';
import type { AppDeps } from '../deps.ts';
import { DomainError } from '../errors.ts';
import { type AccessControl, accessRequired } from '../services/access.ts';
import { verifyAuthTokenClaims } from '../services/auth/tokens.ts';
import { clientAddress } from './client-address.ts';
import type { AppSocket } from './contract.ts';
import { connectRefusal } from './refusals.ts';
import type { Store } from 'express-rate-limit';
import { addressLimiter, type WalletSocketCounts } from './limits.ts';

/** Checks a handshake's auth and answers the wallet it signs in, or throws a DomainError (401/403). */
export function authenticateHandshake(
  deps: Pick<AppDeps, 'config' | 'clock'>,
  auth: unknown,
): { wallet: string; expiresAtMs: number } {
  const { wallet, authToken } = (auth ?? {}) as { wallet?: unknown; authToken?: unknown };
  const claims = verifyAuthTokenClaims(
    deps.config,
    typeof authToken === 'string' ? authToken : undefined,
    deps.clock,
  );
  if (wallet !== undefined && wallet !== claims.wallet) {
    throw new DomainError('wallet_mismatch', 'This connection names another wallet than the signed-in one');
  }
  return claims;
}

export interface HandshakeGuards {
  access: AccessControl;
  /** Sockets per wallet (counted with the other instances through Redis, else here). */
  counts: WalletSocketCounts;
  /** Where handshakes are counted with the other instances (REDIS_URL); else here. */
  store?: Store | undefined;
}

/**
 * `io.use(socketHandshake(deps, guards))`: refuses a socket before any event handler runs when its
 * address opens sockets too fast, its token is not valid, its wallet has no beta access (nor is an admin),
 * or the wallet has SOCKETS_PER_WALLET sockets here already. An admitted socket counts until it closes.
 */
export function socketHandshake(deps: Pick<AppDeps, 'config' | 'clock' | 'logger'>, guards: HandshakeGuards) {
  const { handshakesPerMinute } = deps.config.sockets;
  const perAddress = addressLimiter(handshakesPerMinute, guards.store);
  return async (socket: AppSocket, next: (err?: Error) => void) => {
    try {
      if (!(await perAddress.take(clientAddress(socket)))) {
        throw new DomainError('rate_limited', SERVER_MESSAGES.tooManyConnectionAttempts);
      }
      const { wallet, expiresAtMs } = authenticateHandshake(deps, socket.handshake.auth);
      if (!(await guards.access.allowed(wallet))) throw accessRequired();
      if (!(await guards.counts.admit(wallet, socket.id))) {
        throw new DomainError('too_many_connections', SERVER_MESSAGES.tooManyConnections);
      }
      let counted = true;
      const release = () => {
        if (counted) guards.counts.release(wallet, socket.id);
        counted = false;
      };
      // Whichever comes first: the socket's disconnect, or its connection closing before it joined.
      socket.once('disconnect', release);
      socket.conn.once('close', release);
      Object.assign(socket.data, { wallet, expiresAtMs });
      next();
    } catch (err) {
      next(connectRefusal(err, deps.logger, 'socket handshake'));
    }
  };
}
