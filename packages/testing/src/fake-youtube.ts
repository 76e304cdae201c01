// A local fake of the Google OAuth and YouTube Data API v3 endpoints the API uses, answering as Google
// documents them:
// - GET/POST /o/oauth2/v2/auth (code grant, PKCE S256 required): a consent page, then
//   redirect_uri?code=…&state=…&scope=… as the signed-in channel (`authorizeAs`), or ?error=access_denied;
// - POST /token: authorization_code (with code_verifier; a refresh token for access_type=offline),
//   refresh_token; 400 invalid_grant for a used/unknown code, a bad verifier or a revoked refresh token;
// - GET /youtube/v3/channels?part=snippet&mine=true (Bearer): the channel (id UC…, snippet.customUrl @handle);
// - GET /youtube/v3/liveBroadcasts?part=snippet,status&broadcastStatus=active (Bearer): the channel's
//   broadcasts; exactly one of broadcastStatus, id and mine is accepted (400 incompatibleParameters);
// - GET /youtube/v3/videos?part=liveStreamingDetails&id=a,b&key=KEY: at most 50 ids; concurrentViewers (a
//   string, as Google sends it), actualStartTime, actualEndTime;
// - the daily quota: 1 unit a Data API call; past it, 403 with reason quotaExceeded (domain youtube.quota).
// Control: in process (methods below) or over HTTP under /_fake. `misbehave` switches on, per test, what the
// real API does that a well-behaved fake would not: concurrentViewers absent for a live video (the owner hid
// it), and liveBroadcasts lagging a stream that just started (its first asks answer without it).
// quotaExceeded is `exhaustQuota`, invalid_grant `oauth.revokeRefreshTokens`, 5xx bursts `fail(path, {times})`.
import { randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { type Answer, FakeHttpServer, type Route } from './fake-http.ts';
import { FakeOAuthServer } from './fake-oauth.ts';

interface Channel {
  id: string;
  handle: string;
}
/** The Data API's documented misbehaviours, each off unless a test sets it. */
export interface YouTubeMisbehaviour {
  /** Handles whose live videos answer without concurrentViewers. */
  hideViewers?: Set<string>;
  /** liveBroadcasts leaves a new broadcast out of this many answers before it lists it. */
  lagBroadcasts?: number;
}

interface Video {
  id: string;
  channelId: string;
  startedAt: string;
  endedAt: string | null;
  viewers: number;
}

const googleError = (code: number, reason: string, message: string): Answer => ({
  status: code,
  body: { error: { code, message, errors: [{ message, domain: 'youtube.api', reason }] } },
});

export class FakeYouTube extends FakeHttpServer {
  readonly oauth: FakeOAuthServer;
  readonly channels = new Map<string, Channel>();
  readonly videos = new Map<string, Video>();
  /** Data API units spent today, and the project's daily quota. */
  unitsUsed = 0;
  dailyQuota = Number.POSITIVE_INFINITY;
  /** What this fake does wrong now (see YouTubeMisbehaviour); empty: it answers as documented. */
  misbehave: YouTubeMisbehaviour = {};
  /** Per video id: the liveBroadcasts answers that have left it out (misbehave.lagBroadcasts). */
  private readonly lagged = new Map<string, number>();
  private nextId = 1;

  constructor(
    readonly clientId = 'fake-youtube-client-id.apps.googleusercontent.com',
    readonly clientSecret = 'fake-youtube-client-secret',
    readonly apiKey = 'fake-youtube-api-key',
  ) {
    super();
    this.oauth = new FakeOAuthServer(clientId, clientSecret, '/o/oauth2/v2/auth', 'STRM (YouTube)', true);
  }

  /** Env for the API to use this fake (a large quota: polls are not spaced out in tests). */
  env(): Record<string, string> {
    return {
      YOUTUBE_CLIENT_ID: this.clientId,
      YOUTUBE_CLIENT_SECRET: this.clientSecret,
      YOUTUBE_API_KEY: this.apiKey,
      YOUTUBE_AUTH_BASE_URL: this.url,
      YOUTUBE_TOKEN_URL: `${this.url}/token`,
      YOUTUBE_API_BASE_URL: this.url,
      YOUTUBE_DAILY_QUOTA: '100000000',
    };
  }

  addChannel(handle: string): Channel {
    const key = handle.replace(/^@/, '').toLowerCase();
    const existing = this.channels.get(key);
    if (existing) return existing;
    const channel = { id: `UC${String(this.nextId++).padStart(22, 'x')}`, handle: key };
    this.channels.set(key, channel);
    return channel;
  }

  authorizeAs(handle: string): Channel {
    const channel = this.addChannel(handle);
    this.oauth.signedIn = channel.id;
    return channel;
  }

  /** Goes live with a new broadcast (its video id), or ends the live one (actualEndTime). */
  setLive(handle: string, live: boolean, viewers = 0): void {
    const channel = this.addChannel(handle);
    const current = [...this.videos.values()].find((v) => v.channelId === channel.id && !v.endedAt);
    if (live) {
      if (current) current.viewers = viewers;
      else {
        const id = randomBytes(8).toString('base64url').slice(0, 11);
        this.videos.set(id, {
          id,
          channelId: channel.id,
          startedAt: new Date().toISOString(),
          endedAt: null,
          viewers,
        });
      }
    } else if (current) {
      current.endedAt = new Date().toISOString();
    }
  }

  /** Uses up the quota (every Data API call answers quotaExceeded until `resetQuota`). */
  exhaustQuota(): void {
    this.dailyQuota = this.unitsUsed;
  }

  resetQuota(): void {
    this.unitsUsed = 0;
    this.dailyQuota = Number.POSITIVE_INFINITY;
  }

  /** Data API calls asked, by method (what the quota was spent on). */
  calls(method: 'channels' | 'liveBroadcasts' | 'videos'): number {
    return this.requests.filter((r) => r.url.pathname === `/youtube/v3/${method}`).length;
  }

  protected route(method: string, path: string): Route | undefined {
    const routes: Record<string, Route> = {
      'GET /o/oauth2/v2/auth': (_req, url) => this.oauth.authorizePage(url.searchParams),
      'POST /o/oauth2/v2/auth': (_req, _url, body) => this.oauth.decide(new URLSearchParams(body)),
      'POST /token': (_req, _url, body) => this.oauth.token(new URLSearchParams(body)),
      'GET /youtube/v3/channels': (req, url) => this.dataApi(req, url, () => this.channelsList(req, url)),
      'GET /youtube/v3/liveBroadcasts': (req, url) =>
        this.dataApi(req, url, () => this.liveBroadcasts(req, url)),
      'GET /youtube/v3/videos': (req, url) => this.dataApi(req, url, () => this.videosList(url)),
      'POST /_fake/authorize-as': (_req, _url, body) => ({
        status: 200,
        body: this.authorizeAs(String(JSON.parse(body).handle)),
      }),
      'PUT /_fake/live': (_req, _url, body) => {
        const { handle, live, viewers } = JSON.parse(body) as {
          handle: string;
          live: boolean;
          viewers?: number;
        };
        this.setLive(handle, live, viewers);
        return { status: 200, body: { handle, live } };
      },
    };
    return routes[`${method} ${path}`];
  }

  /** Every Data API call costs a unit; past the quota, 403 quotaExceeded. */
  private dataApi(_req: IncomingMessage, _url: URL, answer: () => Answer): Answer {
    if (this.unitsUsed >= this.dailyQuota) {
      return {
        status: 403,
        body: {
          error: {
            code: 403,
            message:
              'The request cannot be completed because you have exceeded your <a href="/youtube/v3/getting-started#quota">quota</a>.',
            errors: [
              {
                message:
                  'The request cannot be completed because you have exceeded your <a href="/youtube/v3/getting-started#quota">quota</a>.',
                domain: 'youtube.quota',
                reason: 'quotaExceeded',
              },
            ],
          },
        },
      };
    }
    this.unitsUsed += 1;
    return answer();
  }

  private channelOf(req: IncomingMessage): Channel | null {
    const id = this.oauth.bearer(req.headers.authorization);
    return [...this.channels.values()].find((c) => c.id === id) ?? null;
  }

  private unauthorized(): Answer {
    return googleError(
      401,
      'authError',
      'Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential.',
    );
  }

  private channelsList(req: IncomingMessage, url: URL): Answer {
    const channel = this.channelOf(req);
    if (!channel) return this.unauthorized();
    if (url.searchParams.get('mine') !== 'true')
      return googleError(400, 'missingRequiredParameter', 'No filter selected.');
    return {
      status: 200,
      body: {
        kind: 'youtube#channelListResponse',
        pageInfo: { totalResults: 1, resultsPerPage: 5 },
        items: [
          {
            kind: 'youtube#channel',
            id: channel.id,
            snippet: { title: channel.handle, customUrl: `@${channel.handle}`, description: '' },
          },
        ],
      },
    };
  }

  private liveBroadcasts(req: IncomingMessage, url: URL): Answer {
    const channel = this.channelOf(req);
    if (!channel) return this.unauthorized();
    const filters = ['broadcastStatus', 'id', 'mine'].filter((f) => url.searchParams.has(f));
    if (filters.length !== 1) {
      return googleError(
        400,
        'incompatibleParameters',
        'Incompatible parameters specified in the request: exactly one of broadcastStatus, id and mine.',
      );
    }
    const status = url.searchParams.get('broadcastStatus');
    const items = [...this.videos.values()]
      .filter((v) => v.channelId === channel.id)
      .filter((v) => (status === 'active' ? !v.endedAt : status === 'completed' ? v.endedAt : true))
      .filter((v) => {
        const lag = this.misbehave.lagBroadcasts ?? 0;
        const missed = this.lagged.get(v.id) ?? 0;
        if (missed >= lag) return true;
        this.lagged.set(v.id, missed + 1);
        return false;
      })
      .map((v) => ({
        kind: 'youtube#liveBroadcast',
        id: v.id,
        snippet: { channelId: v.channelId, title: 'Fake stream', actualStartTime: v.startedAt },
        status: { lifeCycleStatus: v.endedAt ? 'complete' : 'live', privacyStatus: 'public' },
      }));
    return { status: 200, body: { kind: 'youtube#liveBroadcastListResponse', items } };
  }

  private videosList(url: URL): Answer {
    if (url.searchParams.get('key') !== this.apiKey) {
      return googleError(400, 'keyInvalid', 'API key not valid. Please pass a valid API key.');
    }
    const ids = (url.searchParams.get('id') ?? '').split(',').filter(Boolean);
    if (ids.length > 50) return googleError(400, 'invalidFilters', 'Too many ids (at most 50).');
    const items = ids.flatMap((id) => {
      const v = this.videos.get(id);
      if (!v) return [];
      const handle = [...this.channels.values()].find((c) => c.id === v.channelId)?.handle ?? '';
      const hidden = this.misbehave.hideViewers?.has(handle) === true;
      return [
        {
          kind: 'youtube#video',
          id,
          liveStreamingDetails: {
            actualStartTime: v.startedAt,
            ...(v.endedAt
              ? { actualEndTime: v.endedAt }
              : hidden
                ? {}
                : { concurrentViewers: String(v.viewers) }),
          },
        },
      ];
    });
    return { status: 200, body: { kind: 'youtube#videoListResponse', items } };
  }
}
