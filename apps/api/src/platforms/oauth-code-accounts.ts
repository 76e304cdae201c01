// Verification of YouTube and Kick accounts: the authorization URL with this attempt's state
// (prefixed with the platform, so /callback knows where the code goes) and PKCE challenge, then the code's
// exchange with the verifier kept here. The platform names the account (YouTube's channel and handle, Kick's
// user and channel slug): the username is the platform's, so there is nothing to mismatch. The one-owner rule
// is PlatformAccounts' (the check first for the clear message, the partial unique indexes in PostgreSQL). YouTube's
// refresh token is kept encrypted (AES-256-GCM, key derived from YOUTUBE_CLIENT_SECRET): the server needs the
// streamer's authority once per session, to find the live broadcast at its start.
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { type OAuthCodePlatform, SERVER_MESSAGES } from '@strm/shared';
import type { StreamerRepository } from '../db/streamer-repository.ts';
import type { PrismaClient } from '../db/index.ts';
import { DomainError } from '../errors.ts';
import type { Logger } from '../logger.ts';
import type { PlatformAccounts } from './platform-accounts.ts';
import { platformDomainError } from './platform-accounts.ts';
import { OAuthStates, pkceChallenge } from './oauth-state.ts';
import type { Clock } from '../clock.ts';
import type { PlatformAccountRef } from './adapter.ts';
import { PlatformError } from './fetch.ts';
import type { KickPlatform } from './kick.ts';
import { type YouTubePlatform, YouTubeQuotaExhausted } from './youtube.ts';

export interface OAuthCodeAccountsDeps {
  prisma: PrismaClient;
  streamers: StreamerRepository;
  clock: Clock;
  logger: Logger;
  youtube: YouTubePlatform;
  kick: KickPlatform;
  accounts: PlatformAccounts;
  /** A session open for the wallet on this or any other instance. */
  isLive(wallet: string): Promise<boolean>;
  /** YOUTUBE_CLIENT_SECRET: the refresh tokens' encryption key is derived from it. */
  youtubeSecret: string | undefined;
}

/** A live-status failure the streamer should read as the platform's own words (quota, authorization). */
export function oauthPlatformRefusal(err: unknown): DomainError | undefined {
  if (err instanceof YouTubeQuotaExhausted) return new DomainError('platform_quota_exhausted', err.message);
  if (!(err instanceof PlatformError)) return undefined;
  if (err.kind === 'unauthorized') return new DomainError('platform_token_invalid', err.message);
  return undefined;
}

function keyOf(secret: string): Buffer {
  return createHash('sha256').update('strm youtube refresh token\0').update(secret).digest();
}

/** base64url(iv ‖ tag ‖ ciphertext). */
export function sealToken(token: string, secret: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', keyOf(secret), iv);
  const sealed = Buffer.concat([cipher.update(token, 'utf8'), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString('base64url');
}

/** The token, or null when it was sealed under another secret (rotated: the streamer connects again). */
export function openToken(sealed: string, secret: string): string | null {
  try {
    const raw = Buffer.from(sealed, 'base64url');
    const decipher = createDecipheriv('aes-256-gcm', keyOf(secret), raw.subarray(0, 12));
    decipher.setAuthTag(raw.subarray(12, 28));
    return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
  } catch {
    return null;
  }
}

/** Where the YouTube adapter reads a streamer's refresh token. */
export function youtubeRefreshTokens(
  prisma: PrismaClient,
  secret: string | undefined,
): (account: PlatformAccountRef) => Promise<string | null> {
  return async (account) => {
    if (!secret) return null;
    const row = await prisma.platformAccount.findUnique({
      where: { wallet_platform: { wallet: account.wallet, platform: 'youtube' } },
      select: { oauthRefreshToken: true, isVerified: true },
    });
    return row?.isVerified && row.oauthRefreshToken ? openToken(row.oauthRefreshToken, secret) : null;
  };
}

/** Google refused the account's refresh token (invalid_grant): it is dropped, so the account reads "reconnect". */
export function youtubeGrantRevoked(prisma: PrismaClient): (account: PlatformAccountRef) => Promise<void> {
  return async (account) => {
    await prisma.platformAccount.updateMany({
      where: { wallet: account.wallet, platform: 'youtube' },
      data: { oauthRefreshToken: null },
    });
  };
}

export class OAuthCodeAccounts {
  private readonly states: OAuthStates;

  constructor(private readonly deps: OAuthCodeAccountsDeps) {
    this.states = new OAuthStates(deps);
  }

  private adapter(platform: OAuthCodePlatform): YouTubePlatform | KickPlatform {
    return platform === 'youtube' ? this.deps.youtube : this.deps.kick;
  }

  /** GET /youtube/auth, GET /kick/auth: the popup's URL (a refusal when the platform is not configured). */
  async authorizeUrl(wallet: string, platform: OAuthCodePlatform): Promise<string> {
    const adapter = this.adapter(platform);
    if (!adapter.configured) {
      throw new DomainError('platform_not_configured', SERVER_MESSAGES[`${platform}NotConfigured`]);
    }
    const { state, codeVerifier } = await this.states.begin(wallet, platform, {
      pkce: true,
      prefix: `${platform}.`,
    });
    return adapter.authorizeUrl(state, pkceChallenge(codeVerifier!));
  }

  /** POST /youtube/exchange-code, POST /kick/exchange-code: the code verifies the account it names. */
  async exchange(wallet: string, platform: OAuthCodePlatform, code: string, state: string | undefined) {
    const adapter = this.adapter(platform);
    if (!adapter.configured) {
      throw new DomainError('platform_not_configured', SERVER_MESSAGES[`${platform}NotConfigured`]);
    }
    const { codeVerifier } = await this.states.consume(wallet, platform, state);
    if (!codeVerifier) throw new DomainError('oauth_state_invalid', SERVER_MESSAGES.oauthStateInvalid);
    const named: { id: string; username: string; refreshToken?: string | null } = await adapter
      .verify(code, codeVerifier)
      .catch((err: unknown) => {
        throw platformDomainError(err);
      });
    const { prisma, logger } = this.deps;
    const current = await prisma.platformAccount.findUnique({
      where: { wallet_platform: { wallet, platform } },
    });
    const changes = current?.username !== named.username || current.externalId !== named.id;
    if (changes && (await this.deps.isLive(wallet))) {
      throw new DomainError('streamer_live', SERVER_MESSAGES.usernameWhileLive);
    }
    await this.deps.streamers.ensureStreamer(wallet);
    const refreshToken =
      platform === 'youtube' && named.refreshToken && this.deps.youtubeSecret
        ? sealToken(named.refreshToken, this.deps.youtubeSecret)
        : null;
    const reset = {
      username: named.username,
      isVerified: false,
      verifiedAt: null,
      verificationCode: null,
      codeExpiresAt: null,
      externalId: null,
      // Another channel's refresh token never stays beside this one.
      oauthRefreshToken: null,
    };
    const account = await prisma.platformAccount.upsert({
      where: { wallet_platform: { wallet, platform } },
      create: { wallet, platform, ...reset },
      update: changes ? reset : {},
    });
    const verified = await this.deps.accounts.markVerified(
      wallet,
      platform,
      account.id,
      named.username,
      named.id,
    );
    // Google sends a refresh token with every consent (prompt=consent); one missing keeps the one held.
    if (refreshToken) {
      await prisma.platformAccount.update({
        where: { id: account.id },
        data: { oauthRefreshToken: refreshToken },
      });
    }
    if (platform === 'youtube') {
      this.deps.youtube.forget({ wallet, username: named.username, externalId: named.id });
    }
    logger.info({ wallet, platform, username: named.username }, 'platform account verified by OAuth');
    return { ...verified, platform, isVerified: true as const };
  }
}
