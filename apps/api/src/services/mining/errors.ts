// The engine's refusals: the socket layer turns each into the named event with its message.

/** A refusal the socket layer turns into the named event with this message. */
export class MiningError extends Error {
  constructor(
    readonly event: 'room-error' | 'error' | 'dailyLimitReached' | 'twitch:not-live',
    message: string,
    readonly currentDailyDuration = 0,
  ) {
    super(message);
  }
}

/** The session's owner is alive but did not answer a forwarded request. */
export const OWNER_UNREACHABLE =
  'Your live session runs on another server that did not answer; please try again';
