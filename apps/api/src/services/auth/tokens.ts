import { createSecretKey, type KeyObject } from 'node:crypto';
import { OVERLAY_MESSAGES, SERVER_MESSAGES } from '@strm/shared';
import jwt from 'jsonwebtoken';
import type { Clock } from '../../clock.ts';
import type { Config } from '../../config.ts';
import { DomainError } from '../../errors.ts';
import { isOverlayToken } from '../overlay/tokens.ts';

const ALGORITHM = 'HS256';
const ISSUER = 'strm-api';

let key: { secret: string; key: KeyObject } | undefined;

/**
 * The secret as a key object, made once: given a string, jsonwebtoken first tries it as a PEM public key
 * and builds a secret key from it on every call (5% of an API instance's CPU samples in bench:scale).
 */
function secretOf(config: Config): KeyObject {
  // startServer resolves the secret (JWT_SECRET or the generated one) before the app is built.
  if (!config.jwtSecret) throw new Error('JWT secret is not configured');
  if (key?.secret !== config.jwtSecret) {
    key = { secret: config.jwtSecret, key: createSecretKey(Buffer.from(config.jwtSecret, 'utf8')) };
  }
  return key.key;
}

/** A session token for `wallet`: HS256, subject = wallet, valid for JWT_TTL_SECONDS from the clock's now. */
export function issueAuthToken(config: Config, wallet: string, clock: Clock): string {
  const now = Math.floor(clock.now().getTime() / 1000);
  return jwt.sign({ iat: now, exp: now + config.jwtTtlSeconds }, secretOf(config), {
    algorithm: ALGORITHM,
    subject: wallet,
    issuer: ISSUER,
  });
}

/**
 * The wallet a session token was issued to. A missing, tampered, expired, wrong-secret or otherwise
 * invalid token throws a DomainError (401). Used by the bearer middleware and the Socket.IO handshake.
 */
export function verifyAuthToken(config: Config, token: string | undefined, clock: Clock): string {
  return verifyAuthTokenClaims(config, token, clock).wallet;
}

/** verifyAuthToken, with the moment the token expires (a socket is closed then). */
export function verifyAuthTokenClaims(
  config: Config,
  token: string | undefined,
  clock: Clock,
): { wallet: string; expiresAtMs: number } {
  if (!token) throw new DomainError('unauthorized', 'Authentication token not found');
  // An overlay link's token reads one wallet's overlay and nothing else: refused wherever a session acts.
  if (isOverlayToken(token)) throw new DomainError('read_only_token', OVERLAY_MESSAGES.readOnly);
  let payload: jwt.JwtPayload | string;
  try {
    payload = jwt.verify(token, secretOf(config), {
      algorithms: [ALGORITHM],
      issuer: ISSUER,
      clockTimestamp: Math.floor(clock.now().getTime() / 1000),
    });
  } catch (err) {
    if (err instanceof jwt.TokenExpiredError) {
      throw new DomainError('token_expired', SERVER_MESSAGES.sessionExpired);
    }
    throw new DomainError('invalid_token', 'Invalid authentication token');
  }
  if (typeof payload === 'string' || !payload.sub || typeof payload.exp !== 'number') {
    throw new DomainError('invalid_token', 'Invalid authentication token');
  }
  return { wallet: payload.sub, expiresAtMs: payload.exp * 1000 };
}
