// One way for every client event: validate the payload with the shared zod schema, check that the wallet
// it names is the signed-in one, run the handler, and turn every refusal into the right event. An invalid
// payload gets an `error` event with a clear message: never a crash, never a silent drop.
import {
  type ClientEventName,
  type ClientEventPayload,
  clientEvents,
  SERVER_MESSAGES,
  type ServerEventName,
  type ServerEventPayload,
} from '@strm/shared';
import type { Socket } from 'socket.io';
import { isDatabaseUnavailable } from '../db/unavailable.ts';
import { validationMessage } from '../http/app-error.ts';
import type { Logger } from '../logger.ts';

export type EmitTo = <E extends ServerEventName>(event: E, payload: ServerEventPayload<E>) => void;

/** A refusal: the event to answer and its message. */
export class SocketRefusal extends Error {
  constructor(
    readonly event:
      | 'error'
      | 'room-error'
      | 'tier-error'
      | 'rewards-error'
      | 'dailyLimitReached'
      | 'twitch:not-live',
    message: string,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

export function emit<E extends ServerEventName>(
  socket: Socket,
  event: E,
  payload: ServerEventPayload<E>,
): void {
  socket.emit(event, payload);
}

function namedWallet(payload: Record<string, unknown>): unknown {
  return payload.wallet ?? payload.walletId;
}

/** Every socket of a wallet (all its tabs) joins this room. */
export const walletRoom = (wallet: string) => `wallet:${wallet}`;

export function walletOfSocket(socket: Socket): string {
  return (socket.data as { wallet: string }).wallet;
}

/**
 * Registers `handler` for `event`. `mapError` turns a domain error into a refusal (or undefined for
 * an internal error, which is logged and answered with a generic `error`).
 */
export function handle<E extends ClientEventName>(
  socket: Socket,
  logger: Logger,
  event: E,
  handler: (payload: ClientEventPayload<E>, wallet: string) => Promise<void>,
  mapError: (err: unknown) => SocketRefusal | undefined,
): void {
  socket.on(event as string, async (raw: unknown) => {
    const parsed = clientEvents[event].safeParse(raw ?? {});
    if (!parsed.success) {
      emit(socket, 'error', { message: validationMessage(parsed.error), event });
      return;
    }
    const wallet = walletOfSocket(socket);
    const named = namedWallet(parsed.data as Record<string, unknown>);
    if (named !== undefined && named !== wallet) {
      emit(socket, 'error', { message: SERVER_MESSAGES.walletMismatch, event });
      return;
    }
    try {
      await handler(parsed.data as ClientEventPayload<E>, wallet);
    } catch (err) {
      const refusal = err instanceof SocketRefusal ? err : mapError(err);
      if (!refusal && isDatabaseUnavailable(err)) {
        logger.warn({ err, event }, 'socket event refused: database unavailable');
        emit(socket, 'error', { message: SERVER_MESSAGES.databaseUnavailable, event });
        return;
      }
      if (!refusal) {
        logger.error({ err, event }, 'socket handler failed');
        emit(socket, 'error', { message: SERVER_MESSAGES.socketError, event });
        return;
      }
      if (refusal.event === 'error') emit(socket, 'error', { message: refusal.message, event });
      else socket.emit(refusal.event, { message: refusal.message, ...refusal.extra });
    }
  });
}
