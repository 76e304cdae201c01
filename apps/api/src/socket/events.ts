// One way for every client event: validate the payload with the shared zod schema, check that the wallet
// it names is the signed-in one, run the handler, and turn every refusal into the right event. An invalid
// payload gets an `error` event with a clear message: never a crash, never a silent drop. The requests the
// contract acknowledges (activate-tier, deactivate-tier, collect-rewards) also get their answer or refusal
// through the client's ack callback.
import {
  type Ack,
  type AcknowledgedEventName,
  type AckPayload,
  type ClientEventName,
  type ClientEventPayload,
  clientEvents,
  SERVER_MESSAGES,
} from '@strm/shared';
import { isDatabaseUnavailable } from '../db/unavailable.ts';
import { validationMessage } from '../errors.ts';
import type { Logger } from '../logger.ts';
import type { AppSocket } from './contract.ts';
import { type Refusal, refusalOf } from './refusals.ts';

function namedWallet(payload: Record<string, unknown>): unknown {
  return payload.wallet ?? payload.walletId;
}

/** Tells the socket of a refusal with its event (dailyLimitReached carries the day's mining so far). */
function tell(socket: AppSocket, { event, message, details }: Refusal, request: ClientEventName): void {
  if (event === 'error') socket.emit('error', { message, event: request });
  else if (event === 'dailyLimitReached') {
    socket.emit(event, { message, currentDailyDuration: details.currentDailyDuration ?? 0 });
  } else socket.emit(event, { message });
}

/** What a handler answers: the acknowledged requests' data, nothing for the others. */
// biome-ignore lint/suspicious/noConfusingVoidType: the handlers of the other events return nothing at all.
type Answer<E extends ClientEventName> = E extends AcknowledgedEventName ? AckPayload<E> : void;

/**
 * The client's ack callback, when it sent one (the packet's last argument). It comes off the wire like the
 * payload, so it is checked, not trusted; without one the answer is only the events.
 */
function replier(args: unknown[]): (answer: Ack<unknown>) => void {
  const ack = args.at(-1);
  return typeof ack === 'function' ? (answer) => ack(answer) : () => {};
}

/** A client event's listener, shared by every socket: Socket.IO calls it with the socket as `this`. */
export type SocketListener = readonly [
  ClientEventName,
  (this: AppSocket, ...args: unknown[]) => Promise<void>,
];

/**
 * The listener of `event`, made once for all sockets (per-socket closures for each event were most of what
 * a connected socket held beyond Socket.IO's own). A refusal (a DomainError, the database away) is told
 * with the event socket/refusals.ts names; any other error is logged and answered with a generic `error`.
 */
export function listener<E extends ClientEventName>(
  logger: Logger,
  event: E,
  handler: (payload: ClientEventPayload<E>, wallet: string, socket: AppSocket) => Promise<Answer<E>>,
): SocketListener {
  return [
    event,
    async function (this: AppSocket, ...args: unknown[]) {
      const reply = replier(args);
      const refuse = (message: string) => {
        this.emit('error', { message, event });
        reply({ error: message });
      };
      const raw = typeof args[0] === 'function' ? undefined : args[0];
      const parsed = clientEvents[event].safeParse(raw ?? {});
      if (!parsed.success) {
        refuse(validationMessage(parsed.error));
        return;
      }
      const wallet = this.data.wallet;
      const named = namedWallet(parsed.data);
      if (named !== undefined && named !== wallet) {
        refuse(SERVER_MESSAGES.walletMismatch);
        return;
      }
      try {
        reply({ data: await handler(parsed.data as ClientEventPayload<E>, wallet, this) });
      } catch (err) {
        const refusal = refusalOf(err, event);
        if (!refusal) {
          logger.error({ err, event }, 'socket handler failed');
          refuse(SERVER_MESSAGES.socketError);
          return;
        }
        if (isDatabaseUnavailable(err))
          logger.warn({ err, event }, 'socket event refused: database unavailable');
        tell(this, refusal, event);
        reply({ error: refusal.message });
      }
    },
  ];
}

/** Listens to every client event on `socket` with the shared listeners. */
export function listen(socket: AppSocket, listeners: readonly SocketListener[]): void {
  // Socket.IO's typed `on` takes one known event with its own signature; these are checked by `listener`.
  const on = socket.on as unknown as (this: AppSocket, event: string, fn: SocketListener[1]) => void;
  for (const [event, fn] of listeners) on.call(socket, event, fn);
}
