// How a socket is told that its request was refused, once for every handler: the event, by request and by
// the domain error's code, and the message. Anything that is not a refusal is logged and told generically.
import { type ClientEventName, SERVER_MESSAGES } from '@strm/shared';
import { isDatabaseUnavailable } from '../db/unavailable.ts';
import { DomainError, type ErrorCode, type ErrorDetails } from '../errors.ts';
import type { Logger } from '../logger.ts';

export type RefusalEvent =
  | 'error'
  | 'room-error'
  | 'tier-error'
  | 'rewards-error'
  | 'dailyLimitReached'
  | 'twitch:not-live'
  | 'youtube:not-live'
  | 'kick:not-live';

export interface Refusal {
  event: RefusalEvent;
  message: string;
  details: ErrorDetails;
}

/** Requests whose every refusal, the database being away included, is told with one event. */
const ANSWERED_WITH: Partial<Record<ClientEventName, RefusalEvent>> = {
  'activate-tier': 'tier-error',
  'deactivate-tier': 'tier-error',
  'collect-rewards': 'rewards-error',
};

/**
 * The other requests' refusals whose event is not `error` (the mining engine's: docs/product.md#messages).
 */
const EVENT_OF: Partial<Record<ErrorCode, RefusalEvent>> = {
  platform_not_available: 'room-error',
  platform_not_verified: 'room-error',
  platform_connect_failed: 'room-error',
  tier_read_failed: 'room-error',
  no_tier: 'room-error',
  tier_not_found: 'room-error',
  not_live: 'room-error',
  session_invalid: 'room-error',
  maintenance: 'room-error',
  twitch_not_live: 'twitch:not-live',
  youtube_not_live: 'youtube:not-live',
  kick_not_live: 'kick:not-live',
  platform_quota_exhausted: 'room-error',
  platform_token_invalid: 'room-error',
  daily_limit_reached: 'dailyLimitReached',
};

/**
 * What an unexpected failure of a request is told, where docs/product.md#mining-action-messages has words
 * (else SERVER_MESSAGES.socketError).
 */
const FAILED: Partial<Record<ClientEventName, string>> = {
  'collect-rewards': SERVER_MESSAGES.payoutFailed,
};

/** The refusal `err` is for a socket's `request`, or undefined for an unexpected error. */
export function refusalOf(err: unknown, request: ClientEventName): Refusal | undefined {
  const answered = ANSWERED_WITH[request];
  if (err instanceof DomainError) {
    return { event: answered ?? EVENT_OF[err.code] ?? 'error', message: err.message, details: err.details };
  }
  if (isDatabaseUnavailable(err)) {
    return { event: answered ?? 'error', message: SERVER_MESSAGES.databaseUnavailable, details: {} };
  }
  const failed = FAILED[request];
  return answered && failed ? { event: answered, message: failed, details: {} } : undefined;
}

type ConnectError = Error & { data?: { error: string; message: string } };

/**
 * A handshake's refusal (the main and the overlay namespaces): the client's connect_error, whose message is
 * the refusal's and whose data is `{ error: code, message }`; anything unexpected is logged and told generically.
 */
export function connectRefusal(err: unknown, logger: Logger, what: string): Error {
  const refusal =
    err instanceof DomainError
      ? err
      : isDatabaseUnavailable(err)
        ? new DomainError('database_unavailable', SERVER_MESSAGES.databaseUnavailable)
        : undefined;
  if (!refusal) {
    logger.error({ err }, `${what} failed`);
    return new Error('Internal server error');
  }
  const connectError: ConnectError = new Error(refusal.message);
  connectError.data = { error: refusal.code, message: refusal.message };
  return connectError;
}
