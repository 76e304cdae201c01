// The OAuth `state` of Twitch's and TikTok's authorisations: made by the server for each attempt, stored
// with the wallet that asked (and TikTok's PKCE code_verifier), checked once when the authorisation comes
// back. A state that was never issued, was already used, has expired or belongs to another wallet is
// refused: an authorisation started elsewhere (a forged link, a replay) never verifies an account here.
import { createHash, randomBytes } from 'node:crypto';
import { type Platform, SERVER_MESSAGES } from '@strm/shared';
import type { Clock } from '../clock.ts';
import type { PrismaClient } from '../db/index.ts';
import { DomainError } from '../errors.ts';

/** How long an authorisation may take, from the authorize URL to the verification. */
export const OAUTH_STATE_TTL_MS = 10 * 60_000;

/** RFC 7636 S256: BASE64URL(SHA-256(code_verifier)), unpadded. */
export function pkceChallenge(codeVerifier: string): string {
  return createHash('sha256').update(codeVerifier).digest('base64url');
}

export interface OAuthAttempt {
  state: string;
  /** TikTok only: sent (as its challenge) in the authorize URL and (itself) in the code exchange. */
  codeVerifier?: string;
}

export class OAuthStates {
  constructor(private readonly deps: { prisma: PrismaClient; clock: Clock }) {}

  /** A new attempt for the wallet; the expired attempts of every wallet are dropped on the way. */
  async begin(
    wallet: string,
    platform: Platform,
    opts: { pkce?: boolean; prefix?: string } = {},
  ): Promise<OAuthAttempt> {
    const now = this.deps.clock.now();
    const state = (opts.prefix ?? '') + randomBytes(24).toString('base64url');
    // 64 characters of the unreserved set (RFC 7636 allows 43 to 128).
    const codeVerifier = opts.pkce ? randomBytes(48).toString('base64url') : undefined;
    await this.deps.prisma.oAuthState.deleteMany({ where: { expiresAt: { lte: now } } });
    await this.deps.prisma.oAuthState.create({
      data: {
        state,
        wallet,
        platform,
        codeVerifier: codeVerifier ?? null,
        expiresAt: new Date(now.getTime() + OAUTH_STATE_TTL_MS),
        createdAt: now,
      },
    });
    return { state, ...(codeVerifier ? { codeVerifier } : {}) };
  }

  /**
   * Uses the wallet's attempt up (whatever comes next, it cannot be used again). Another wallet's state is
   * left alone and answered like an unknown one.
   */
  async consume(wallet: string, platform: Platform, state: string | undefined): Promise<OAuthAttempt> {
    if (!state) throw new DomainError('oauth_state_invalid', SERVER_MESSAGES.oauthStateInvalid);
    const [row] = await this.deps.prisma.$queryRaw<{ codeVerifier: string | null; expiresAt: Date }[]>`
      DELETE FROM oauth_states
       WHERE state = ${state} AND wallet = ${wallet} AND platform = ${platform}::"StreamPlatform"
      RETURNING code_verifier AS "codeVerifier", expires_at AS "expiresAt"`;
    if (!row) throw new DomainError('oauth_state_invalid', SERVER_MESSAGES.oauthStateInvalid);
    if (row.expiresAt.getTime() <= this.deps.clock.now().getTime()) {
      throw new DomainError('oauth_state_expired', SERVER_MESSAGES.oauthStateExpired);
    }
    return { state, ...(row.codeVerifier ? { codeVerifier: row.codeVerifier } : {}) };
  }
}
