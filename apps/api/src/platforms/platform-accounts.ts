// Platform accounts: usernames (normalised: no leading @, lower case), TikTok bio codes, verification
// against the platforms, and the one-verified-owner rule (a partial unique index in PostgreSQL; the check
// before it only gives the clear message first). No Express here: failures are DomainErrors.
import { randomBytes } from 'node:crypto';
import { type Platform, PLATFORMS, type PlatformStatus, SERVER_MESSAGES } from '@strm/shared';
import type { Clock } from '../clock.ts';
import type { StreamerRepository } from '../db/streamer-repository.ts';
import type { PrismaClient } from '../db/index.ts';
import { isUniqueViolation } from '../db/unavailable.ts';
import { DomainError } from '../errors.ts';
import type { Logger } from '../logger.ts';
import { normaliseUsername } from './adapter.ts';
import { PlatformError } from './fetch.ts';
import type { TikTokPlatform } from './tiktok.ts';
import { TWITCH_MESSAGES, type TwitchPlatform } from './twitch.ts';
import { OAuthStates, pkceChallenge } from './oauth-state.ts';

export interface VerificationDeps {
  prisma: PrismaClient;
  streamers: StreamerRepository;
  clock: Clock;
  logger: Logger;
  twitch: TwitchPlatform;
  tiktok: TikTokPlatform;
  /** A session open for the wallet on this or any other instance. */
  isLive(wallet: string): Promise<boolean>;
  codeTtlSeconds: number;
}

/** Crockford-style alphabet: no 0/O or 1/I to misread when typing the code into a bio. */
const CODE_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';

function newCode(): string {
  const bytes = randomBytes(8);
  let code = '';
  for (const b of bytes) code += CODE_ALPHABET[b % CODE_ALPHABET.length];
  return `STRM-${code}`;
}

/** A platform failure as the caller sees it: status and message (Retry-After kept for 429). */
export function platformDomainError(err: unknown): unknown {
  if (!(err instanceof PlatformError)) return err;
  switch (err.kind) {
    case 'rate-limited':
      return new DomainError('platform_rate_limited', err.message, {
        retryAfterSeconds: err.retryAfterSeconds,
      });
    case 'not-found':
      return new DomainError('platform_user_not_found', err.message);
    case 'unauthorized':
      return new DomainError('platform_token_invalid', err.message);
    default:
      return new DomainError('platform_unavailable', err.message);
  }
}

export class PlatformAccounts {
  private readonly oauth: OAuthStates;

  constructor(private readonly deps: VerificationDeps) {
    this.oauth = new OAuthStates(deps);
  }

  /** GET /twitch/auth: the popup's URL, with a state made for this attempt and bound to the wallet. */
  async twitchAuthorizeUrl(wallet: string): Promise<string> {
    if (!this.deps.twitch.configured) {
      throw new DomainError('twitch_not_configured', TWITCH_MESSAGES.notConfigured);
    }
    const { state } = await this.oauth.begin(wallet, 'twitch');
    return this.deps.twitch.authorizeUrl(state);
  }

  /** GET /tiktok/auth: Login Kit's URL, with this attempt's state and PKCE challenge (the verifier stays here). */
  async tiktokAuthorizeUrl(wallet: string): Promise<string> {
    if (!this.deps.tiktok.loginKitConfigured) {
      this.deps.logger.error('TIKTOK_CLIENT_KEY and TIKTOK_CLIENT_SECRET are needed for TikTok sign-in');
      throw new DomainError('tiktok_not_configured', SERVER_MESSAGES.tiktokApiDisabled);
    }
    const { state, codeVerifier } = await this.oauth.begin(wallet, 'tiktok', { pkce: true });
    return this.deps.tiktok.authorizeUrl(state, pkceChallenge(codeVerifier!));
  }

  /** GET /streamer-platforms: both platforms, verified or not, with the stored username. */
  async statuses(wallet: string): Promise<PlatformStatus[]> {
    const rows = await this.deps.prisma.platformAccount.findMany({
      where: { wallet, platform: { in: [...PLATFORMS] } },
    });
    return PLATFORMS.map((platform) => {
      const row = rows.find((r) => r.platform === platform);
      const status: PlatformStatus = {
        platform,
        isVerified: row?.isVerified ?? false,
        username: row?.username ?? null,
      };
      // YouTube is watched with the streamer's refresh token: without one (Google refused it), connect again.
      if (platform === 'youtube' && row?.isVerified && !row.oauthRefreshToken) status.reconnectNeeded = true;
      return status;
    });
  }

  /** POST /update-streamer-username: a new username is unverified until verified again. */
  async updateUsername(wallet: string, platform: Platform, username: string) {
    if (platform === 'youtube' || platform === 'kick')
      throw new DomainError('bad_request', SERVER_MESSAGES[`${platform}VerifiedByAuthorizing`]);
    const name = normaliseUsername(username);
    const current = await this.deps.prisma.platformAccount.findUnique({
      where: { wallet_platform: { wallet, platform } },
    });
    if (current?.username === name) {
      return { platform, username: name, isVerified: current.isVerified };
    }
    if (await this.deps.isLive(wallet))
      throw new DomainError('streamer_live', SERVER_MESSAGES.usernameWhileLive);
    await this.deps.streamers.ensureStreamer(wallet);
    const reset = {
      username: name,
      isVerified: false,
      verifiedAt: null,
      verificationCode: null,
      codeExpiresAt: null,
      externalId: null,
    };
    await this.deps.prisma.platformAccount.upsert({
      where: { wallet_platform: { wallet, platform } },
      create: { wallet, platform, ...reset },
      update: reset,
    });
    return { platform, username: name, isVerified: false };
  }

  /** POST /streamer-validation: a TikTok bio code for the stored username, valid `codeTtlSeconds`. */
  async generateCode(wallet: string, platform: Platform) {
    if (platform === 'twitch')
      throw new DomainError('bad_request', SERVER_MESSAGES.twitchVerifiedByAuthorizing);
    if (platform === 'youtube' || platform === 'kick')
      throw new DomainError('bad_request', SERVER_MESSAGES[`${platform}VerifiedByAuthorizing`]);
    const account = await this.deps.prisma.platformAccount.findUnique({
      where: { wallet_platform: { wallet, platform } },
    });
    if (!account?.username)
      throw new DomainError('username_required', SERVER_MESSAGES.tiktokUsernameRequired);
    if (account.isVerified) throw new DomainError('already_verified', SERVER_MESSAGES.tiktokAlreadyVerified);
    await this.assertNotTaken(wallet, platform, account.username);
    const code = newCode();
    const expiresAt = new Date(this.deps.clock.now().getTime() + this.deps.codeTtlSeconds * 1000);
    await this.deps.prisma.platformAccount.update({
      where: { id: account.id },
      data: { verificationCode: code, codeExpiresAt: expiresAt },
    });
    const minutes = Math.round(this.deps.codeTtlSeconds / 60);
    return {
      verificationCode: code,
      expiresAt: expiresAt.toISOString(),
      message: `Add ${code} to your TikTok bio, then verify your account. The code expires in ${minutes} minutes.`,
    };
  }

  /** POST /verify-streamer. */
  async verify(
    wallet: string,
    input: { platform: Platform; verificationCode?: string; accessToken?: string; state?: string },
  ) {
    if (input.platform === 'youtube' || input.platform === 'kick')
      throw new DomainError('bad_request', SERVER_MESSAGES[`${input.platform}VerifiedByAuthorizing`]);
    return input.platform === 'twitch'
      ? this.verifyTwitch(wallet, input.accessToken, input.state)
      : this.verifyTikTok(wallet, input.verificationCode);
  }

  private async verifyTwitch(wallet: string, accessToken: string | undefined, state: string | undefined) {
    if (!accessToken) throw new DomainError('token_required', SERVER_MESSAGES.twitchAuthorizeFirst);
    // The token must come back from an authorisation this wallet started here (used up even if what
    // follows fails: a new attempt gets a new state).
    await this.oauth.consume(wallet, 'twitch', state);
    const account = await this.deps.prisma.platformAccount.findUnique({
      where: { wallet_platform: { wallet, platform: 'twitch' } },
    });
    if (!account?.username)
      throw new DomainError('username_required', SERVER_MESSAGES.twitchUsernameRequired);
    const info = await this.deps.twitch.validateToken(accessToken).catch((err: unknown) => {
      throw platformDomainError(err);
    });
    if (normaliseUsername(info.login) !== account.username) {
      throw new DomainError(
        'username_mismatch',
        `This Twitch authorization is for ${info.login}, not ${account.username}. Sign in to Twitch as ${account.username}, or change the username.`,
      );
    }
    return this.markVerified(wallet, 'twitch', account.id, account.username, info.user_id);
  }

  private async verifyTikTok(wallet: string, hint: string | undefined) {
    const account = await this.deps.prisma.platformAccount.findUnique({
      where: { wallet_platform: { wallet, platform: 'tiktok' } },
    });
    if (!account?.username)
      throw new DomainError('username_required', SERVER_MESSAGES.tiktokUsernameRequired);
    if (account.isVerified) {
      return {
        message: SERVER_MESSAGES.tiktokVerified,
        platform: 'tiktok' as const,
        username: account.username,
        isVerified: true,
      };
    }
    if (!account.verificationCode || !account.codeExpiresAt) {
      throw new DomainError('code_required', SERVER_MESSAGES.generateCodeFirst);
    }
    if (account.codeExpiresAt.getTime() <= this.deps.clock.now().getTime()) {
      throw new DomainError('code_expired', SERVER_MESSAGES.codeExpired);
    }
    // The extension may send the code it saw; it only triggers this check, never replaces it.
    if (hint && hint.trim().toUpperCase() !== account.verificationCode) {
      throw new DomainError('code_mismatch', SERVER_MESSAGES.codeMismatch);
    }
    const profile = await this.deps.tiktok.profile(account.username).catch((err: unknown) => {
      throw platformDomainError(err);
    });
    if (!profile.bio.toUpperCase().includes(account.verificationCode)) {
      throw new DomainError('code_not_in_bio', SERVER_MESSAGES.codeNotInBio);
    }
    return this.markVerified(wallet, 'tiktok', account.id, account.username, profile.id);
  }

  /** POST /tiktok/exchange-code: the Login Kit flow verifies the username TikTok names for the code. */
  async exchangeTikTokCode(wallet: string, code: string, state: string | undefined) {
    const { codeVerifier } = await this.oauth.consume(wallet, 'tiktok', state);
    if (!codeVerifier) throw new DomainError('oauth_state_invalid', SERVER_MESSAGES.oauthStateInvalid);
    const result = await this.deps.tiktok.exchangeCode(code, codeVerifier).catch((err: unknown) => {
      const mapped = platformDomainError(err);
      if (mapped instanceof DomainError && mapped.code === 'platform_token_invalid') {
        throw new DomainError('exchange_failed', SERVER_MESSAGES.exchangeFailed);
      }
      throw mapped;
    });
    const username = normaliseUsername(result.username);
    if (await this.deps.isLive(wallet))
      throw new DomainError('streamer_live', SERVER_MESSAGES.usernameWhileLive);
    await this.deps.streamers.ensureStreamer(wallet);
    const account = await this.deps.prisma.platformAccount.upsert({
      where: { wallet_platform: { wallet, platform: 'tiktok' } },
      create: { wallet, platform: 'tiktok', username },
      update: {},
    });
    if (account.username !== username && account.isVerified) {
      await this.updateUsername(wallet, 'tiktok', username);
    } else if (account.username !== username) {
      await this.deps.prisma.platformAccount.update({ where: { id: account.id }, data: { username } });
    }
    const verified = await this.markVerified(wallet, 'tiktok', account.id, username, result.openId);
    return { access_token: result.accessToken, username: verified.username, message: verified.message };
  }

  private async assertNotTaken(wallet: string, platform: Platform, username: string, externalId?: string) {
    const taken = await this.deps.prisma.platformAccount.findFirst({
      where: {
        platform,
        isVerified: true,
        NOT: { wallet },
        OR: [
          { username: { equals: username, mode: 'insensitive' } },
          ...(externalId ? [{ externalId }] : []),
        ],
      },
    });
    if (taken) throw new DomainError('account_taken', SERVER_MESSAGES[`${platform}AccountTaken`]);
  }

  /** Also YouTube's and Kick's (platforms/oauth-code-accounts.ts). */
  async markVerified(wallet: string, platform: Platform, id: number, username: string, externalId: string) {
    await this.assertNotTaken(wallet, platform, username, externalId);
    try {
      await this.deps.prisma.platformAccount.update({
        where: { id },
        data: {
          isVerified: true,
          verifiedAt: this.deps.clock.now(),
          verificationCode: null,
          codeExpiresAt: null,
          externalId,
        },
      });
    } catch (err) {
      if (isUniqueViolation(err)) {
        throw new DomainError('account_taken', SERVER_MESSAGES[`${platform}AccountTaken`]);
      }
      throw err;
    }
    this.deps.logger.info({ wallet, platform, username }, 'platform account verified');
    return {
      message: SERVER_MESSAGES[`${platform}Verified`],
      platform,
      username,
      isVerified: true as const,
    };
  }
}
