// The engine's refusals, by kind; the socket layer turns each kind into its event (socket/mining.ts).

/**
 * room: the room or the start is refused (the account, the platform, the tier, maintenance); request: the
 * request is refused (already mining, the rate not due); daily-limit: the day's limit is reached;
 * twitch-not-live: the Twitch stream is not live.
 */
export type MiningRefusal = 'room' | 'request' | 'daily-limit' | 'twitch-not-live';

/** A refusal the socket layer turns into its kind's event with this message. */
export class MiningError extends Error {
  constructor(
    readonly refusal: MiningRefusal,
    message: string,
    readonly currentDailyDuration = 0,
  ) {
    super(message);
  }
}

/** The session's owner is alive but did not answer a forwarded request. */
export const OWNER_UNREACHABLE =
  'Your live session runs on another server that did not answer; please try again';
