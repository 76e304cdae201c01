// Overlay tokens: a random secret in the overlay link, kept by the server only as its SHA-256 hash. They
// are read-only by construction: only the overlay namespace accepts one (services/auth/tokens.ts refuses
// them everywhere a session token is asked for).
import { createHash, randomBytes } from 'node:crypto';
import { OVERLAY_TOKEN_PREFIX } from '@strm/shared';

/** A new overlay token: the prefix and 32 random bytes (base64url). */
export function newOverlayToken(): string {
  return `${OVERLAY_TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`;
}

/** What is stored and looked up: the token's SHA-256 (a fast hash suffices for 256 random bits). */
export function hashOverlayToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

export function isOverlayToken(token: string | undefined): boolean {
  return typeof token === 'string' && token.startsWith(OVERLAY_TOKEN_PREFIX);
}

/** A public card's slug: 12 characters of [a-z0-9], new each time the card is made public. */
export function newCardSlug(): string {
  const alphabet = 'abcdefghijklmnopqrstuvwxyz0123456789';
  return Array.from(randomBytes(12), (b) => alphabet[b % alphabet.length]).join('');
}
