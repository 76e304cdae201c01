// YouTube Live: Google OAuth 2.0 with PKCE for verification (scope youtube.readonly; the channel
// from channels.list?mine=true), and live detection that spends the Data API's daily quota (10,000 units by
// default; each call below costs 1 unit) with care:
// - the streamer's live broadcast is found once, when the session starts (liveBroadcasts.list with
//   broadcastStatus=active, which returns the authorised channel's broadcasts: the API takes exactly one of
//   broadcastStatus, id and mine, so `mine` is not sent with it), with an access token from the refresh token
//   kept (encrypted) at verification;
// - from then on every watched broadcast is polled with videos.list (50 ids a call, the API key), and the
//   polls are spaced by how many are live so a day of polling fits the quota's share for it;
// - the units spent are counted in /metrics (strm_youtube_quota_units_total), with the estimate per 1,000
//   live streamers per day; when Google answers quotaExceeded, the platform could not be asked: live sessions
//   read unknown and end by the poller's fail-closed rule, new ones are refused with a clear message until it
//   resets (docs/platforms-youtube-kick.md#youtube-live);
// - the quota belongs to the project, not to whoever asks: join-room is answered from what the poller or a
//   recent lookup read, and what one wallet makes the server ask is bounded by its own daily budget
//   (walletDailyUnits), so one wallet cannot spend the quota every other streamer needs.
import type { Redis } from 'ioredis';
import { Gauge } from 'prom-client';
import type { Logger } from '../logger.ts';
import type { LiveStatus, PlatformAccountRef } from './adapter.ts';
import { malformed, PlatformError } from './fetch.ts';
import {
  CachedToken,
  codeGrantUrl,
  exchangeCode,
  requestToken,
  TokenRefused,
  type TokenEndpoint,
} from './oauth-code.ts';
import { keyOf, type PollOptions, PolledPlatform } from './polled.ts';
import {
  broadcastsSchema,
  channelsSchema,
  VIDEOS_PAGE,
  YOUTUBE_MESSAGES,
  YouTubeDataApi,
} from './youtube-data-api.ts';
import { YouTubeQuota, YouTubeQuotaExhausted } from './youtube-quota.ts';

const LABEL = 'YouTube';
export const YOUTUBE_SCOPE = 'https://www.googleapis.com/auth/youtube.readonly';
/** The share of the daily quota live polling may spend; the rest is for verifications and session starts. */
const POLL_QUOTA_SHARE = 0.8;
const DAY_MS = 86_400_000;

/** Units a lookup for one account costs at most before it knows (liveBroadcasts.list, videos.list). */
const LOOKUP_UNITS = 2;

export { YOUTUBE_MESSAGES } from './youtube-data-api.ts';
export {
  nextPacificMidnight,
  pacificDay,
  YouTubeQuotaExhausted,
  YouTubeWalletBudgetSpent,
} from './youtube-quota.ts';

export interface YouTubeOptions extends PollOptions {
  clientId: string | undefined;
  clientSecret: string | undefined;
  /** The Data API key videos.list is polled with (public data, one key for every streamer: batched). */
  apiKey: string | undefined;
  /** Google's authorization server (https://accounts.google.com): /o/oauth2/v2/auth. */
  authBaseUrl: string;
  /** Google's token endpoint (https://oauth2.googleapis.com/token). */
  tokenUrl: string;
  /** The Data API (https://www.googleapis.com): /youtube/v3/…. */
  apiBaseUrl: string;
  redirectUri: string;
  httpTimeoutMs: number;
  /** The project's daily quota in units (10,000 unless Google granted more). */
  dailyQuota: number;
  /** After the day is spent, how long before asking again (default: until the quota resets, midnight Pacific). */
  quotaRetryMs?: number;
  /**
   * Data API units the lookups one wallet causes (join-room, start-stream) may spend in a Pacific day
   * (default 40: twenty lookups); the poller's own calls are not counted against it.
   */
  walletDailyUnits?: number;
  /** How long what was read about an account answers join-room without asking again (default 60 s). */
  roomStateMaxAgeMs?: number;
  /**
   * Without Redis, the instances sharing the project (YOUTUBE_INSTANCES, default 1): each counts its own units
   * against dailyQuota / instances. With Redis every instance counts into one total.
   */
  instances?: number;
}

/** Where the adapter reads a verified streamer's refresh token (decrypted), by wallet. */
export type RefreshTokenSource = (account: PlatformAccountRef) => Promise<string | null>;

export interface YouTubeChannel {
  /** The channel id (UC…): the account's external id. */
  id: string;
  /** The handle without its @ (lower case), else the channel id. */
  username: string;
  refreshToken: string | null;
}

interface Watched {
  videoId: string | null;
  last: LiveStatus | null;
  /** When `last` was read (a poll or a lookup). */
  atMs: number;
}

export class YouTubePlatform extends PolledPlatform {
  readonly platform = 'youtube' as const;
  /** Per account key: the live video found at start, and the last status known. */
  private readonly known = new Map<string, Watched>();
  /** Access tokens from the streamers' refresh tokens, by account key. */
  private readonly userTokens = new Map<string, CachedToken>();
  /** The project's units and each wallet's budget (shared through Redis when there is one). */
  private readonly quota: YouTubeQuota;
  private lastRoundAtMs = 0;
  /** Google's Data API, each call counted against the quota. */
  private readonly data: YouTubeDataApi;
  private readonly perThousand: Gauge | undefined;

  constructor(
    private readonly options: YouTubeOptions,
    private readonly logger: Logger,
    private readonly refreshTokenOf: RefreshTokenSource = async () => null,
    /** Google answered invalid_grant for the account's refresh token: it must connect again (marked at once). */
    private readonly onGrantRevoked: (account: PlatformAccountRef) => Promise<void> = async () => {},
  ) {
    super(LABEL, options, logger);
    this.quota = new YouTubeQuota(options, logger);
    this.data = new YouTubeDataApi(options, this.quota, logger);
    const registry = options.metrics?.registry;
    if (registry) {
      this.perThousand = new Gauge({
        name: 'strm_youtube_quota_units_per_1000_live_streamers_per_day',
        help: 'Estimated quota units a day of live polling spends per 1,000 live YouTube streamers, at the pace of the last poll',
        registers: [registry],
      });
    }
  }

  get configured(): boolean {
    return Boolean(this.options.clientId && this.options.clientSecret && this.options.apiKey);
  }

  /**
   * Counts the project's units and each wallet's budget in Redis from now on (the instances on one database
   * share `prefix`): the quota belongs to the Cloud project, not to one instance, and a wallet has one budget
   * however many instances it reaches (docs/platforms-youtube-kick.md#youtube-live).
   */
  shareQuota(redis: Redis, prefix: string): void {
    this.quota.share(redis, prefix);
  }

  /** Whether the day is spent (Google's quotaExceeded, or the instances' count) and nothing is asked yet. */
  get quotaExhausted(): boolean {
    return this.quota.exhausted;
  }

  /** GET /youtube/auth: Google's consent page (offline access: a refresh token comes back with the code). */
  authorizeUrl(state: string, codeChallenge: string): string {
    if (!this.configured) throw new PlatformError('unavailable', YOUTUBE_MESSAGES.notConfigured);
    return codeGrantUrl(
      `${this.options.authBaseUrl}/o/oauth2/v2/auth`,
      {
        clientId: this.options.clientId!,
        redirectUri: this.options.redirectUri,
        scope: YOUTUBE_SCOPE,
        state,
        codeChallenge,
      },
      { access_type: 'offline', prompt: 'consent', include_granted_scopes: 'true' },
    );
  }

  /** The code from /callback, exchanged with its verifier; then whose channel it is (channels.list?mine=true). */
  async verify(code: string, codeVerifier: string): Promise<YouTubeChannel> {
    const tokens = await exchangeCode(
      this.tokenEndpoint(YOUTUBE_MESSAGES.codeRefused),
      this.options,
      code,
      codeVerifier,
    );
    const url = new URL(`${this.options.apiBaseUrl}/youtube/v3/channels`);
    url.searchParams.set('part', 'snippet');
    url.searchParams.set('mine', 'true');
    const body = await this.data.call('channels.list', url.toString(), tokens.access_token);
    const parsed = channelsSchema.safeParse(body);
    if (!parsed.success) throw malformed(LABEL, this.logger, url.toString(), parsed.error.issues[0]);
    const channel = parsed.data.items?.[0];
    if (!channel) throw new PlatformError('not-found', YOUTUBE_MESSAGES.noChannel);
    const handle = channel.snippet.customUrl?.replace(/^@/, '').toLowerCase();
    return { id: channel.id, username: handle || channel.id, refreshToken: tokens.refresh_token ?? null };
  }

  /** At a start (and a dashboard's join): the live broadcast found now, its viewers from videos.list. */
  async liveStatus(account: PlatformAccountRef): Promise<LiveStatus> {
    if (this.quotaExhausted) throw new YouTubeQuotaExhausted();
    await this.quota.chargeWallet(account.wallet, LOOKUP_UNITS, true);
    const key = keyOf(account);
    const entry = this.known.get(key) ?? { videoId: null, last: null, atMs: 0 };
    this.known.set(key, entry);
    entry.videoId ??= await this.findLiveVideo(account);
    let status: LiveStatus = { live: false, viewers: 0 };
    if (entry.videoId) {
      const videos = await this.data.videos([entry.videoId]);
      status = videos.get(entry.videoId) ?? status;
      if (!status.live) {
        // That broadcast ended: a new one may be live now (charged, not refused: the lookup has begun).
        await this.quota.chargeWallet(account.wallet, LOOKUP_UNITS, false);
        entry.videoId = await this.findLiveVideo(account);
        if (entry.videoId) status = (await this.data.videos([entry.videoId])).get(entry.videoId) ?? status;
      }
    }
    entry.last = status;
    entry.atMs = Date.now();
    return this.answer(status);
  }

  /**
   * join-room: what the poller (for a live session) or a lookup less than roomStateMaxAgeMs ago read, else
   * one lookup charged to the wallet's budget; with the budget or the quota spent, offline (the dashboard's
   * view only: a start asks again, and is refused with the reason).
   */
  async roomStatus(account: PlatformAccountRef): Promise<LiveStatus> {
    const entry = this.known.get(keyOf(account));
    const maxAgeMs = this.options.roomStateMaxAgeMs ?? 60_000;
    // A stream the poller watches, or one seen live a moment ago, is answered from what is known; one last
    // seen offline is asked again (a streamer who just went live), within the wallet's own budget.
    const recentlyLive = entry?.last?.live === true && Date.now() - entry.atMs < maxAgeMs;
    if (entry?.last && (this.poller.watching(keyOf(account)) || recentlyLive)) {
      return this.answer(entry.last);
    }
    if (this.quotaExhausted || !(await this.quota.walletCan(account.wallet, LOOKUP_UNITS))) {
      return entry?.last ? this.answer(entry.last) : { live: false, viewers: 0 };
    }
    return this.liveStatus(account);
  }

  /** What callers see of a status (`ended` is the poller's business). */
  private answer(status: LiveStatus): LiveStatus {
    const seen: LiveStatus = { live: status.live, viewers: status.viewers };
    if (status.viewersUnknown) seen.viewersUnknown = true;
    return seen;
  }

  protected async statuses(accounts: PlatformAccountRef[]): Promise<Map<string, LiveStatus>> {
    const now = Date.now();
    const result = new Map<string, LiveStatus>();
    // The platform cannot be asked (quota) or need not be yet (pace): the last known states stand.
    const held = () => {
      for (const a of accounts) {
        const last = this.known.get(keyOf(a))?.last;
        if (last) result.set(keyOf(a), last);
      }
      return result;
    };
    this.forgetUnwatched(accounts);
    // The quota is gone: nothing can be read, so every watched stream is unknown this round and ends by the
    // poller's fail-closed rule, never mining on what nobody can confirm (docs/platforms.md#live-detection).
    if (this.quotaExhausted) return result;
    this.data.available();
    const entries = accounts.map((a) => {
      const key = keyOf(a);
      const entry = this.known.get(key) ?? { videoId: null, last: null, atMs: 0 };
      this.known.set(key, entry);
      return { account: a, key, entry };
    });
    const unitsPerRound =
      Math.ceil(entries.filter((e) => e.entry.videoId).length / VIDEOS_PAGE) +
      entries.filter((e) => !e.entry.videoId).length;
    const paceMs = Math.ceil((DAY_MS * unitsPerRound) / (this.options.dailyQuota * POLL_QUOTA_SHARE));
    if (now - this.lastRoundAtMs < paceMs) return held();
    this.lastRoundAtMs = now;
    if (entries.length) {
      this.perThousand?.set(
        ((unitsPerRound / entries.length) * 1000 * DAY_MS) / Math.max(this.options.pollIntervalMs, paceMs),
      );
    }
    try {
      // A session resumed after a restart has no broadcast id here yet: found once with its own token.
      for (const e of entries) {
        if (e.entry.videoId) continue;
        try {
          e.entry.videoId = await this.findLiveVideo(e.account);
          if (!e.entry.videoId) {
            e.entry.last = { live: false, viewers: 0 };
            e.entry.atMs = now;
            result.set(e.key, e.entry.last);
          }
        } catch (err) {
          if (err instanceof YouTubeQuotaExhausted) throw err;
          this.logger.warn({ err, wallet: e.account.wallet }, 'YouTube live broadcast lookup failed');
        }
      }
      const ids = [...new Set(entries.flatMap((e) => (e.entry.videoId ? [e.entry.videoId] : [])))];
      const videos = await this.data.videos(ids);
      for (const e of entries) {
        if (!e.entry.videoId) continue;
        const status = videos.get(e.entry.videoId) ?? { live: false, viewers: 0 };
        if (!status.live) e.entry.videoId = null;
        e.entry.last = status;
        e.entry.atMs = now;
        result.set(e.key, status);
      }
    } catch (err) {
      if (err instanceof YouTubeQuotaExhausted) return new Map();
      throw err;
    }
    return result;
  }

  /**
   * The poller asks about every watched account at once: what is kept for an account no longer watched (its
   * session ended) goes, so memory follows the live sessions, not every streamer who ever connected here.
   */
  private forgetUnwatched(accounts: PlatformAccountRef[]): void {
    const watched = new Set(accounts.map(keyOf));
    for (const key of this.known.keys()) if (!watched.has(key)) this.known.delete(key);
    for (const key of this.userTokens.keys()) if (!watched.has(key)) this.userTokens.delete(key);
  }

  /** The account's live broadcast now (liveBroadcasts.list, broadcastStatus=active), with its own token. */
  private async findLiveVideo(account: PlatformAccountRef, retried = false): Promise<string | null> {
    const token = await this.userToken(account);
    const url = new URL(`${this.options.apiBaseUrl}/youtube/v3/liveBroadcasts`);
    url.searchParams.set('part', 'snippet,status');
    url.searchParams.set('broadcastStatus', 'active');
    url.searchParams.set('broadcastType', 'all');
    url.searchParams.set('maxResults', '5');
    try {
      const parsed = broadcastsSchema.safeParse(
        await this.data.call('liveBroadcasts.list', url.toString(), token),
      );
      if (!parsed.success) throw malformed(LABEL, this.logger, url.toString(), parsed.error.issues[0]);
      const live = parsed.data.items.find(
        (b) =>
          b.status.lifeCycleStatus === 'live' &&
          (!account.externalId || !b.snippet?.channelId || b.snippet.channelId === account.externalId),
      );
      return live?.id ?? null;
    } catch (err) {
      // The access token expired early or was revoked: one new one from the refresh token, one retry.
      if (!retried && err instanceof PlatformError && err.kind === 'unauthorized') {
        this.userTokens.get(keyOf(account))?.clear();
        return this.findLiveVideo(account, true);
      }
      throw err;
    }
  }

  private async userToken(account: PlatformAccountRef): Promise<string> {
    const key = keyOf(account);
    let cached = this.userTokens.get(key);
    if (!cached) {
      cached = new CachedToken(async () => {
        const refreshToken = await this.refreshTokenOf(account);
        if (!refreshToken) throw new PlatformError('unauthorized', YOUTUBE_MESSAGES.tokenInvalid);
        try {
          return await requestToken(this.tokenEndpoint(YOUTUBE_MESSAGES.tokenInvalid), {
            grant_type: 'refresh_token',
            refresh_token: refreshToken,
            client_id: this.options.clientId ?? '',
            client_secret: this.options.clientSecret ?? '',
          });
        } catch (err) {
          // Revoked, or expired (an app in Google's Testing status: 7 days): the account says so now, not
          // at its next start (docs/platforms-youtube-kick.md#youtube-live).
          if (err instanceof TokenRefused && err.oauthError === 'invalid_grant') {
            this.logger.warn({ wallet: account.wallet }, 'Google refused a refresh token (invalid_grant)');
            await this.onGrantRevoked(account).catch((markErr: unknown) =>
              this.logger.error({ err: markErr }, 'A revoked YouTube grant could not be recorded'),
            );
          }
          throw err;
        }
      });
      this.userTokens.set(key, cached);
    }
    return cached.get();
  }

  /** Forgets what is kept for an account (a new verification brings a new refresh token). */
  forget(account: PlatformAccountRef): void {
    this.userTokens.delete(keyOf(account));
    this.known.delete(keyOf(account));
  }

  private tokenEndpoint(refusedMessage: string): TokenEndpoint {
    return {
      label: LABEL,
      url: this.options.tokenUrl,
      timeoutMs: this.options.httpTimeoutMs,
      logger: this.logger,
      refusedMessage,
    };
  }
}
