// The engine's refusals are DomainErrors (apps/api/src/errors.ts); socket/refusals.ts names their events.

/** The session's owner is alive but did not answer a forwarded request. */
export const OWNER_UNREACHABLE =
  'Your live session runs on another server that did not answer; please try again';
