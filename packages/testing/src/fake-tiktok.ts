// A local fake of the TikTok endpoints the API uses:
// - GET /@{uniqueId}: the profile page, whose __UNIVERSAL_DATA_FOR_REHYDRATION__ JSON carries
//   webapp.user-detail.userInfo.user { id, uniqueId, signature (the bio) } (statusCode 10202: no such user);
// - GET /api-live/user/room/?uniqueId=…&sourceType=54: the room info that tiktok-live-connector reads to
//   tell whether a user is live (data.user.roomId, data.liveRoom.status: 2 live, 4 ended;
//   liveRoomStats.userCount) — statusCode 19881007 when the user does not exist;
// - GET /v2/auth/authorize/ (www.tiktok.com), POST /v2/oauth/token/ and GET /v2/user/info/
//   (open.tiktokapis.com): TikTok's Login Kit, for the OAuth code flow behind the TIKTOK_API flag. The
//   authorize page returns, as the user set with `authorizeAs`, to redirect_uri?code=…&state=…; a code
//   issued with a PKCE challenge is exchanged only with the code_verifier whose S256 matches it.
// Control: in process (methods below) or over HTTP under /_fake. `misbehave` switches on, per test, what
// TikTok's web endpoints do to a server asking them often (tiktok-live-connector's reports): an anti-bot
// page (200, HTML) instead of the room's JSON, and a room answer without the live room while the user is
// live; 429s and 5xx bursts are `fail(path, {times})`.
import { createHash, randomBytes } from 'node:crypto';
import { type Answer, FakeHttpServer, type Route } from './fake-http.ts';

interface TikTokUser {
  id: string;
  uniqueId: string;
  bio: string;
  roomId: string;
  live: boolean;
  viewers: number;
  likes: number;
}

/** TikTok's misbehaviours, each off unless a test sets it. */
export interface TikTokMisbehaviour {
  /** Handles whose room info answers the anti-bot verification page (200, HTML) instead of JSON. */
  challenge?: Set<string>;
  /** Handles whose room info answers statusCode 0 with no user (a live user's room not read this time). */
  emptyRoom?: Set<string>;
}

export class FakeTikTok extends FakeHttpServer {
  readonly users = new Map<string, TikTokUser>();
  /** What this fake does wrong now (see TikTokMisbehaviour); empty: it answers as the real endpoint does. */
  misbehave: TikTokMisbehaviour = {};
  /** Every answer of the room info for a known user, in order: whether it said live (tests time by answers). */
  readonly roomAnswers: Array<{ uniqueId: string; live: boolean }> = [];
  private readonly codes = new Map<string, { login: string; codeChallenge?: string }>();
  /** The TikTok user who consents on the authorize page (`authorizeAs`). */
  private consentingUser: string | undefined;
  /** Every token request's form, as sent (tests read what the API sent). */
  readonly tokenRequests: URLSearchParams[] = [];
  private readonly tokens = new Map<string, string>();
  private nextId = 7_000_000_000_000_000_000n;

  constructor(
    readonly clientKey = 'fake-tiktok-client-key',
    readonly clientSecret = 'fake-tiktok-client-secret',
  ) {
    super();
  }

  env(): Record<string, string> {
    return { TIKTOK_WEB_BASE_URL: this.url, TIKTOK_OPEN_API_BASE_URL: this.url };
  }

  addUser(uniqueId: string, bio = ''): TikTokUser {
    const key = uniqueId.toLowerCase();
    const existing = this.users.get(key);
    if (existing) return existing;
    const id = String(this.nextId++);
    const user = { id, uniqueId: key, bio, roomId: '', live: false, viewers: 0, likes: 0 };
    this.users.set(key, user);
    return user;
  }

  setBio(uniqueId: string, bio: string): void {
    this.addUser(uniqueId).bio = bio;
  }

  setLive(uniqueId: string, live: boolean, viewers = 0, likes = 0): void {
    const user = this.addUser(uniqueId);
    user.live = live;
    user.viewers = live ? viewers : 0;
    user.likes = live ? likes : 0;
    if (live && !user.roomId) user.roomId = String(7_300_000_000_000_000_000n + BigInt(this.users.size));
  }

  /** An authorisation code as TikTok's consent page would return to the redirect URI. */
  issueCode(uniqueId: string, codeChallenge?: string): string {
    const user = this.addUser(uniqueId);
    const code = randomBytes(12).toString('hex');
    this.codes.set(code, { login: user.uniqueId, ...(codeChallenge ? { codeChallenge } : {}) });
    return code;
  }

  /** Who consents on the authorize page. */
  authorizeAs(uniqueId: string): void {
    this.consentingUser = this.addUser(uniqueId).uniqueId;
  }

  private authorize(params: URLSearchParams): Answer {
    const redirect = params.get('redirect_uri');
    if (params.get('client_key') !== this.clientKey || !redirect || params.get('response_type') !== 'code') {
      return {
        status: 400,
        body: { error: 'invalid_request', error_description: 'invalid client_key or redirect_uri' },
      };
    }
    const challenge = params.get('code_challenge') ?? undefined;
    if (challenge !== undefined && params.get('code_challenge_method') !== 'S256') {
      return {
        status: 400,
        body: { error: 'invalid_request', error_description: 'code_challenge_method must be S256' },
      };
    }
    const target = new URL(redirect);
    if (!this.consentingUser) {
      target.searchParams.set('error', 'access_denied');
    } else {
      target.searchParams.set('code', this.issueCode(this.consentingUser, challenge));
      target.searchParams.set('scopes', params.get('scope') ?? '');
    }
    target.searchParams.set('state', params.get('state') ?? '');
    return { status: 302, headers: { location: target.toString() } };
  }

  protected route(method: string, path: string): Route | undefined {
    if (method === 'GET' && path.startsWith('/@')) {
      return () => this.profile(decodeURIComponent(path.slice(2)));
    }
    const routes: Record<string, Route> = {
      'GET /api-live/user/room/': (_req, url) => this.room(url.searchParams.get('uniqueId') ?? ''),
      'GET /v2/auth/authorize/': (_req, url) => this.authorize(url.searchParams),
      'POST /v2/oauth/token/': (_req, _url, body) => this.token(new URLSearchParams(body)),
      'GET /v2/user/info/': (req) => this.userInfo(req.headers.authorization),
      'PUT /_fake/bio': (_req, _url, body) => {
        const { uniqueId, bio } = JSON.parse(body) as { uniqueId: string; bio: string };
        this.setBio(uniqueId, bio);
        return { status: 200, body: { uniqueId, bio } };
      },
      'PUT /_fake/live': (_req, _url, body) => {
        const { uniqueId, live, viewers } = JSON.parse(body) as {
          uniqueId: string;
          live: boolean;
          viewers?: number;
        };
        this.setLive(uniqueId, live, viewers);
        return { status: 200, body: { uniqueId, live } };
      },
    };
    return routes[`${method} ${path}`];
  }

  private profile(uniqueId: string): Answer {
    const user = this.users.get(uniqueId.toLowerCase());
    const detail = user
      ? {
          statusCode: 0,
          statusMsg: '',
          userInfo: {
            user: { id: user.id, uniqueId: user.uniqueId, nickname: user.uniqueId, signature: user.bio },
            stats: { followerCount: 12, heartCount: 40 },
          },
        }
      : { statusCode: 10202, statusMsg: '' };
    const data = { __DEFAULT_SCOPE__: { 'webapp.user-detail': detail } };
    return {
      status: 200,
      raw: `<!DOCTYPE html><html><head><title>TikTok</title></head><body><script id="__UNIVERSAL_DATA_FOR_REHYDRATION__" type="application/json">${JSON.stringify(data)}</script></body></html>`,
    };
  }

  private room(uniqueId: string): Answer {
    const user = this.users.get(uniqueId.toLowerCase());
    if (!user) return { status: 200, body: { data: {}, message: 'user_not_found', statusCode: 19881007 } };
    if (this.misbehave.challenge?.has(user.uniqueId)) {
      return {
        status: 200,
        headers: { 'Content-Type': 'text/html' },
        raw: '<!DOCTYPE html><html><head><title>Security Check</title></head><body>captcha</body></html>',
      };
    }
    if (this.misbehave.emptyRoom?.has(user.uniqueId)) {
      return { status: 200, body: { data: {}, message: '', statusCode: 0 } };
    }
    this.roomAnswers.push({ uniqueId: user.uniqueId, live: user.live });
    return {
      status: 200,
      body: {
        data: {
          user: {
            id: user.id,
            uniqueId: user.uniqueId,
            nickname: user.uniqueId,
            roomId: user.roomId,
            status: 2,
          },
          liveRoom: {
            status: user.live ? 2 : 4,
            startTime: Math.floor(Date.now() / 1000),
            title: 'Fake live',
            liveRoomStats: { userCount: user.viewers, enterCount: user.viewers, likeCount: user.likes },
          },
        },
        message: '',
        statusCode: 0,
      },
    };
  }

  private token(form: URLSearchParams): Answer {
    this.tokenRequests.push(form);
    if (form.get('client_key') !== this.clientKey || form.get('client_secret') !== this.clientSecret) {
      return {
        status: 200,
        body: { error: 'invalid_client', error_description: 'Client key or secret is incorrect.' },
      };
    }
    const issued = this.codes.get(form.get('code') ?? '');
    if (form.get('grant_type') !== 'authorization_code' || !issued) {
      return {
        status: 200,
        body: { error: 'invalid_grant', error_description: 'Authorization code is expired.' },
      };
    }
    const verifier = form.get('code_verifier');
    if (
      issued.codeChallenge !== undefined &&
      (!verifier || createHash('sha256').update(verifier).digest('base64url') !== issued.codeChallenge)
    ) {
      return {
        status: 200,
        body: { error: 'invalid_request', error_description: 'Code verifier or code challenge is invalid.' },
      };
    }
    this.codes.delete(form.get('code') ?? '');
    const login = issued.login;
    const token = `act.${randomBytes(16).toString('hex')}`;
    this.tokens.set(token, login);
    const user = this.users.get(login)!;
    return {
      status: 200,
      body: {
        access_token: token,
        expires_in: 86_400,
        open_id: `open-${user.id}`,
        refresh_token: `rft.${randomBytes(8).toString('hex')}`,
        refresh_expires_in: 31_536_000,
        scope: 'user.info.basic,user.info.profile',
        token_type: 'Bearer',
      },
    };
  }

  private userInfo(header: string | undefined): Answer {
    const token = /^Bearer (\S+)$/i.exec(header ?? '')?.[1];
    const login = token ? this.tokens.get(token) : undefined;
    if (!login) {
      return {
        status: 401,
        body: { data: {}, error: { code: 'access_token_invalid', message: 'The access token is invalid.' } },
      };
    }
    const user = this.users.get(login)!;
    return {
      status: 200,
      body: {
        data: { user: { open_id: `open-${user.id}`, union_id: `union-${user.id}`, username: user.uniqueId } },
        error: { code: 'ok', message: '', log_id: randomBytes(8).toString('hex') },
      },
    };
  }
}
