// TikTok: the profile bio (verification by a code the user puts there), live detection and viewer counts
// from TikTok LIVE's room-info endpoint, and the Login Kit code exchange (behind the TIKTOK_API flag).
//
// Why not `tiktok-live-connector`: it reads the same room-info endpoint (`api-live/user/room/`,
// `liveRoom.status` 4 = ended) but wraps it in a webcast client that signs requests through a third-party
// signing service and opens a protobuf WebSocket for chat events we do not need; polling the endpoint
// directly keeps one configurable base URL (TIKTOK_WEB_BASE_URL) that tests point at a fake server.
import { z } from 'zod';
import type { Logger } from '../logger.ts';
import type { LiveStatus, PlatformAccountRef } from './adapter.ts';
import { normaliseUsername } from './adapter.ts';
import { expectJson, malformed, PlatformError, platformFetch } from './fetch.ts';
import { keyOf, type PollOptions, PolledPlatform } from './polled.ts';

const LABEL = 'TikTok';
/** TikTok's answer code for an unknown uniqueId on the room endpoint. */
const ROOM_USER_NOT_FOUND = 19_881_007;
/** A room whose status is 4 has ended (tiktok-live-connector: `status !== 4` is online). */
const ROOM_ENDED = 4;
const POLL_CONCURRENCY = 8;
const BROWSER_HEADERS = {
  'User-Agent':
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
  Accept: 'text/html,application/json',
  'Accept-Language': 'en-US,en;q=0.9',
};

export interface TikTokOptions extends PollOptions {
  webBaseUrl: string;
  openApiBaseUrl: string;
  httpTimeoutMs: number;
  clientKey: string | undefined;
  clientSecret: string | undefined;
  redirectUri: string;
}

export const TIKTOK_MESSAGES = {
  userNotFound: 'TikTok user not found. Check the username and try again.',
  exchangeFailed: 'Failed to exchange code for token',
} as const;

const profileSchema = z.object({
  __DEFAULT_SCOPE__: z.object({
    'webapp.user-detail': z.object({
      statusCode: z.number(),
      userInfo: z
        .object({
          user: z.object({ id: z.string(), uniqueId: z.string(), signature: z.string().default('') }),
        })
        .optional(),
    }),
  }),
});
const roomSchema = z.object({
  statusCode: z.number(),
  data: z
    .object({
      user: z.object({ id: z.string().optional(), roomId: z.string().default('') }).optional(),
      liveRoom: z
        .object({
          status: z.number(),
          liveRoomStats: z.object({ userCount: z.number().int().nonnegative().default(0) }).optional(),
        })
        .optional(),
    })
    .optional(),
});
const tokenSchema = z.union([
  z.object({ access_token: z.string().min(1), open_id: z.string(), expires_in: z.number() }),
  z.object({ error: z.string(), error_description: z.string().optional() }),
]);
const userInfoSchema = z.object({
  data: z.object({ user: z.object({ open_id: z.string(), username: z.string().min(1) }) }),
});

export interface TikTokProfile {
  id: string;
  uniqueId: string;
  bio: string;
}

export class TikTokPlatform extends PolledPlatform {
  readonly platform = 'tiktok' as const;

  constructor(
    private readonly options: TikTokOptions,
    private readonly logger: Logger,
  ) {
    super(LABEL, options, logger);
  }

  /** The public profile (its bio is where the verification code goes). */
  async profile(username: string): Promise<TikTokProfile> {
    const url = `${this.options.webBaseUrl}/@${encodeURIComponent(normaliseUsername(username))}`;
    const res = await platformFetch(
      LABEL,
      url,
      { headers: BROWSER_HEADERS, timeoutMs: this.options.httpTimeoutMs },
      this.logger,
    );
    if (res.status === 404) throw new PlatformError('not-found', TIKTOK_MESSAGES.userNotFound);
    if (res.status === 429 || res.status >= 300) expectJson(LABEL, res, this.logger, url);
    const match =
      /<script id="__UNIVERSAL_DATA_FOR_REHYDRATION__" type="application\/json">([\s\S]*?)<\/script>/.exec(
        res.text,
      );
    let data: unknown;
    try {
      data = match ? JSON.parse(match[1]!) : undefined;
    } catch {
      data = undefined;
    }
    const parsed = profileSchema.safeParse(data);
    if (!parsed.success) throw malformed(LABEL, this.logger, url, 'no user detail in the profile page');
    const detail = parsed.data.__DEFAULT_SCOPE__['webapp.user-detail'];
    if (detail.statusCode !== 0 || !detail.userInfo) {
      throw new PlatformError('not-found', TIKTOK_MESSAGES.userNotFound);
    }
    const { user } = detail.userInfo;
    return { id: user.id, uniqueId: user.uniqueId, bio: user.signature };
  }

  async liveStatus(account: PlatformAccountRef): Promise<LiveStatus> {
    const url = new URL(`${this.options.webBaseUrl}/api-live/user/room/`);
    url.searchParams.set('aid', '1988');
    url.searchParams.set('app_name', 'tiktok_web');
    url.searchParams.set('device_platform', 'web_pc');
    url.searchParams.set('uniqueId', normaliseUsername(account.username));
    url.searchParams.set('sourceType', '54');
    const res = await platformFetch(
      LABEL,
      url.toString(),
      { headers: BROWSER_HEADERS, timeoutMs: this.options.httpTimeoutMs },
      this.logger,
    );
    const parsed = roomSchema.safeParse(expectJson(LABEL, res, this.logger, url.toString()));
    if (!parsed.success) throw malformed(LABEL, this.logger, url.toString(), parsed.error.issues[0]);
    const { statusCode, data } = parsed.data;
    // Fails closed: an account TikTok no longer knows is offline.
    if (statusCode === ROOM_USER_NOT_FOUND) return { live: false, viewers: 0 };
    if (statusCode !== 0 || !data?.user) throw malformed(LABEL, this.logger, url.toString(), { statusCode });
    // TikTok's web room endpoint is asked by handle; its answer only counts for the account verified (by
    // its user id): a handle that now names another account (renamed, taken over) is offline.
    if (account.externalId && data.user.id !== account.externalId) {
      this.logger.info({ wallet: account.wallet }, 'TikTok handle no longer names the verified account');
      return { live: false, viewers: 0 };
    }
    const live =
      Boolean(data.user.roomId) && data.liveRoom !== undefined && data.liveRoom.status !== ROOM_ENDED;
    return { live, viewers: live ? (data.liveRoom?.liveRoomStats?.userCount ?? 0) : 0 };
  }

  /** One room request per account, a few at a time; an account that fails this round stays unknown. */
  protected async statuses(accounts: PlatformAccountRef[]): Promise<Map<string, LiveStatus>> {
    const result = new Map<string, LiveStatus>();
    let failures = 0;
    for (let i = 0; i < accounts.length; i += POLL_CONCURRENCY) {
      await Promise.all(
        accounts.slice(i, i + POLL_CONCURRENCY).map(async (account) => {
          try {
            result.set(keyOf(account), await this.liveStatus(account));
          } catch {
            failures++;
          }
        }),
      );
    }
    if (failures && !result.size) throw new PlatformError('unavailable', 'Failed to connect to TikTok Live');
    return result;
  }

  get loginKitConfigured(): boolean {
    return Boolean(this.options.clientKey && this.options.clientSecret);
  }

  /**
   * GET /tiktok/auth: Login Kit's authorisation page, with this attempt's `state` and the S256 challenge of
   * its PKCE code_verifier (both kept by the server); TikTok returns to the redirect URI with ?code=&state=.
   */
  authorizeUrl(state: string, codeChallenge: string): string {
    if (!this.options.clientKey) throw new PlatformError('unavailable', TIKTOK_MESSAGES.exchangeFailed);
    const url = new URL(`${this.options.webBaseUrl}/v2/auth/authorize/`);
    url.searchParams.set('client_key', this.options.clientKey);
    url.searchParams.set('scope', 'user.info.basic');
    url.searchParams.set('response_type', 'code');
    url.searchParams.set('redirect_uri', this.options.redirectUri);
    url.searchParams.set('state', state);
    url.searchParams.set('code_challenge', codeChallenge);
    url.searchParams.set('code_challenge_method', 'S256');
    return url.toString();
  }

  /**
   * Login Kit: the authorisation code (with the PKCE code_verifier of the attempt it came back from) for a
   * token, then the user's TikTok username.
   */
  async exchangeCode(
    code: string,
    codeVerifier: string,
  ): Promise<{ accessToken: string; username: string; openId: string }> {
    const { clientKey, clientSecret } = this.options;
    if (!clientKey || !clientSecret) {
      this.logger.error('TIKTOK_CLIENT_KEY and TIKTOK_CLIENT_SECRET are needed for the TikTok code exchange');
      throw new PlatformError('unavailable', TIKTOK_MESSAGES.exchangeFailed);
    }
    const tokenUrl = `${this.options.openApiBaseUrl}/v2/oauth/token/`;
    const res = await platformFetch(
      LABEL,
      tokenUrl,
      {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          client_key: clientKey,
          client_secret: clientSecret,
          code,
          grant_type: 'authorization_code',
          redirect_uri: this.options.redirectUri,
          code_verifier: codeVerifier,
        }).toString(),
        timeoutMs: this.options.httpTimeoutMs,
      },
      this.logger,
    );
    const token = tokenSchema.safeParse(expectJson(LABEL, res, this.logger, tokenUrl));
    if (!token.success) throw malformed(LABEL, this.logger, tokenUrl, token.error.issues[0]);
    if ('error' in token.data) {
      this.logger.info({ error: token.data.error }, 'TikTok refused an authorisation code');
      throw new PlatformError('unauthorized', TIKTOK_MESSAGES.exchangeFailed);
    }
    const infoUrl = `${this.options.openApiBaseUrl}/v2/user/info/?fields=open_id,username`;
    const info = await platformFetch(
      LABEL,
      infoUrl,
      {
        headers: { Authorization: `Bearer ${token.data.access_token}` },
        timeoutMs: this.options.httpTimeoutMs,
      },
      this.logger,
    );
    if (info.status === 401) throw new PlatformError('unauthorized', TIKTOK_MESSAGES.exchangeFailed);
    const user = userInfoSchema.safeParse(expectJson(LABEL, info, this.logger, infoUrl));
    if (!user.success) throw malformed(LABEL, this.logger, infoUrl, user.error.issues[0]);
    return {
      accessToken: token.data.access_token,
      username: user.data.data.user.username,
      openId: user.data.data.user.open_id,
    };
  }
}
