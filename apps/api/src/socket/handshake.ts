// The Socket.IO handshake: `auth: { wallet, authToken }` must carry a valid session token whose wallet
// is `wallet` (when given). Anything else is refused at connect with `connect_error` whose message is the
// API's error message and whose `data` is `{ error, message }`. Event handlers behind it read the
// wallet from `socket.data.wallet`, never from a payload.
import type { Socket } from 'socket.io';
import type { AppDeps } from '../deps.ts';
import { AppError } from '../http/app-error.ts';
import { verifyAuthToken } from '../services/auth/tokens.ts';

export interface SocketData {
  /** The signed-in wallet (the token's subject). */
  wallet: string;
}

type ConnectError = Error & { data?: { error: string; message: string } };

function refusal(err: AppError): ConnectError {
  return Object.assign(new Error(err.message), { data: { error: err.code, message: err.message } });
}

/** Checks a handshake's auth and answers the wallet it signs in, or throws a 401/403 AppError. */
export function authenticateHandshake(deps: Pick<AppDeps, 'config' | 'clock'>, auth: unknown): string {
  const { wallet, authToken } = (auth ?? {}) as { wallet?: unknown; authToken?: unknown };
  const tokenWallet = verifyAuthToken(
    deps.config,
    typeof authToken === 'string' ? authToken : undefined,
    deps.clock,
  );
  if (wallet !== undefined && wallet !== tokenWallet) {
    throw AppError.forbidden(
      'This connection names another wallet than the signed-in one',
      'wallet_mismatch',
    );
  }
  return tokenWallet;
}

/** `io.use(socketHandshake(deps))`: refuses unauthenticated sockets before any event handler runs. */
export function socketHandshake(deps: Pick<AppDeps, 'config' | 'clock' | 'logger'>) {
  return (socket: Socket, next: (err?: Error) => void) => {
    try {
      (socket.data as SocketData).wallet = authenticateHandshake(deps, socket.handshake.auth);
      next();
    } catch (err) {
      if (err instanceof AppError) {
        next(refusal(err));
        return;
      }
      deps.logger.error({ err }, 'socket handshake failed');
      next(new Error('Internal server error'));
    }
  };
}
