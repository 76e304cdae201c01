// How a socket is told that its request was refused, once for every handler: the event, by request and by
// the domain error's code, and the message. Anything that is not a refusal is logged and told generically.
import { type ClientEventName, SERVER_MESSAGES } from '@strm/shared';
import { isDatabaseUnavailable } from '../db/unavailable.ts';
import { DomainError, type ErrorCode, type ErrorDetails } from '../errors.ts';
import { MiningError, type MiningRefusal } from '../services/mining/engine.ts';

export type RefusalEvent =
  | 'error'
  | 'room-error'
  | 'tier-error'
  | 'rewards-error'
  | 'dailyLimitReached'
  | 'twitch:not-live';

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

/** The other requests' refusals whose event is not `error`. */
const EVENT_OF: Partial<Record<ErrorCode, RefusalEvent>> = {};

/** Each kind of the mining engine's refusals, as the event its client is answered with. */
const MINING_EVENT: Record<MiningRefusal, RefusalEvent> = {
  room: 'room-error',
  request: 'error',
  'daily-limit': 'dailyLimitReached',
  'twitch-not-live': 'twitch:not-live',
};

/** What an unexpected failure of a request is told, where the spec says (else SERVER_MESSAGES.socketError). */
const FAILED: Partial<Record<ClientEventName, string>> = {
  'collect-rewards': SERVER_MESSAGES.payoutFailed,
};

/** The refusal `err` is for a socket's `request`, or undefined for an unexpected error. */
export function refusalOf(err: unknown, request: ClientEventName): Refusal | undefined {
  const answered = ANSWERED_WITH[request];
  if (err instanceof DomainError) {
    return { event: answered ?? EVENT_OF[err.code] ?? 'error', message: err.message, details: err.details };
  }
  if (err instanceof MiningError) {
    return {
      event: MINING_EVENT[err.refusal],
      message: err.message,
      details: err.refusal === 'daily-limit' ? { currentDailyDuration: err.currentDailyDuration } : {},
    };
  }
  if (isDatabaseUnavailable(err)) {
    return { event: answered ?? 'error', message: SERVER_MESSAGES.databaseUnavailable, details: {} };
  }
  const failed = FAILED[request];
  return answered && failed ? { event: answered, message: failed, details: {} } : undefined;
}
