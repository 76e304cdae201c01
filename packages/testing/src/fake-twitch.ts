// A local fake of the Twitch endpoints the API uses, answering as Twitch documents them:
// - GET  /oauth2/authorize (implicit grant): with force_verify=true, as Twitch, a consent page whose
//   'Authorize' button posts back to it; without (or on that post), redirects to
//   redirect_uri#access_token=…&token_type=bearer&state=… as the user set with `authorizeAs` (the fake's
//   "signed-in" Twitch user), or #error=access_denied when nobody is signed in or the user cancels;
// - GET  /oauth2/validate (Authorization: OAuth <token>): client_id, login, user_id, scopes, expires_in, or 401;
// - POST /oauth2/token (grant_type=client_credentials): an app access token, or 403 for a wrong secret;
// - GET  /helix/streams?user_login=…&user_id=… (Client-Id + Bearer app token): the live streams, or 401;
// - POST /helix/eventsub/subscriptions (webhook transport): verifies the callback with a signed challenge as
//   Twitch does, then delivers signed stream.offline notifications when a channel goes offline.
// Control: in process (methods below) or over HTTP under /_fake (for a product run in another process).
import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import { type Answer, FakeHttpServer, type Route } from './fake-http.ts';

interface TwitchUser {
  id: string;
  login: string;
}
interface UserToken {
  userId: string;
  clientId: string;
  expiresAtMs: number;
  revoked: boolean;
}

export class FakeTwitch extends FakeHttpServer {
  readonly users = new Map<string, TwitchUser>();
  private readonly live = new Map<string, number>();
  private readonly userTokens = new Map<string, UserToken>();
  private readonly appTokens = new Set<string>();
  /** App access tokens issued so far (client-credentials grants answered). */
  appTokensIssued = 0;
  private nextId = 41_000_000;
  readonly subscriptions: Array<{
    id: string;
    type: string;
    broadcasterId: string;
    callback: string;
    secret: string;
    status: 'webhook_callback_verification_pending' | 'enabled' | 'webhook_callback_verification_failed';
  }> = [];
  /** Notifications delivered (status the callback answered). */
  readonly deliveries: Array<{ type: string; status: number }> = [];
  /**
   * Every answer of GET /helix/streams, in order: the logins asked about and those it said were live (a test
   * times live detection by the answers the product got, not by the wall clock).
   */
  readonly streamAnswers: Array<{ asked: string[]; live: string[] }> = [];
  /** The Twitch user who "authorises" in the popup (`authorizeAs`). */
  signedInLogin: string | null = null;

  constructor(
    readonly clientId = 'fake-twitch-client-id',
    readonly clientSecret = 'fake-twitch-client-secret',
  ) {
    super();
  }

  /** Env for the API to use this fake. */
  env(): Record<string, string> {
    return {
      TWITCH_CLIENT_ID: this.clientId,
      TWITCH_CLIENT_SECRET: this.clientSecret,
      TWITCH_AUTH_BASE_URL: this.url,
      TWITCH_API_BASE_URL: this.url,
    };
  }

  addUser(login: string): TwitchUser {
    const key = login.toLowerCase();
    const existing = this.users.get(key);
    if (existing) return existing;
    const user = { id: String(this.nextId++), login: key };
    this.users.set(key, user);
    return user;
  }

  authorizeAs(login: string): TwitchUser {
    const user = this.addUser(login);
    this.signedInLogin = user.login;
    return user;
  }

  /** A user access token as the implicit grant would give (for API tests that skip the popup). */
  issueUserToken(login: string, opts: { expiresInSeconds?: number; clientId?: string } = {}): string {
    const user = this.addUser(login);
    const token = randomBytes(15).toString('hex');
    this.userTokens.set(token, {
      userId: user.id,
      clientId: opts.clientId ?? this.clientId,
      expiresAtMs: Date.now() + (opts.expiresInSeconds ?? 14_400) * 1000,
      revoked: false,
    });
    return token;
  }

  revoke(token: string): void {
    const t = this.userTokens.get(token);
    if (t) t.revoked = true;
  }

  /** Invalidates every app token (Twitch may do so at any time; the client must get a new one). */
  revokeAppTokens(): void {
    this.appTokens.clear();
  }

  setLive(login: string, live: boolean, viewers = 0): void {
    const user = this.addUser(login);
    const wasLive = this.live.has(user.id);
    if (live) this.live.set(user.id, viewers);
    else this.live.delete(user.id);
    if (wasLive && !live) {
      for (const sub of this.subscriptions) {
        if (sub.type === 'stream.offline' && sub.broadcasterId === user.id && sub.status === 'enabled') {
          void this.deliver(sub, 'notification', {
            subscription: { id: sub.id, type: sub.type, version: '1', status: sub.status },
            event: {
              broadcaster_user_id: user.id,
              broadcaster_user_login: user.login,
              broadcaster_user_name: user.login,
            },
          });
        }
      }
    }
  }

  /**
   * Twitch revokes the channel's subscriptions (its reasons: notification_failures_exceeded,
   * authorization_revoked, user_removed, version_removed): they are gone, and a signed `revocation` message
   * says so to each callback. Resolves with the callbacks' answers.
   */
  async revokeSubscriptions(login: string, status = 'notification_failures_exceeded'): Promise<number[]> {
    const user = this.addUser(login);
    const gone = this.subscriptions.filter((sub) => sub.broadcasterId === user.id);
    for (const sub of gone) this.subscriptions.splice(this.subscriptions.indexOf(sub), 1);
    const answers = await Promise.all(
      gone.map((sub) =>
        this.deliver(sub, 'revocation', {
          subscription: {
            id: sub.id,
            type: sub.type,
            version: '1',
            status,
            cost: 0,
            condition: { broadcaster_user_id: user.id },
            transport: { method: 'webhook', callback: sub.callback },
            created_at: new Date().toISOString(),
          },
        }),
      ),
    );
    return answers.map((a) => a.status);
  }

  /** Posts a signed EventSub message to the subscription's callback, as Twitch does. */
  private async deliver(
    sub: FakeTwitch['subscriptions'][number],
    type: string,
    payload: unknown,
  ): Promise<{ status: number; text: string }> {
    const id = randomUUID();
    const timestamp = new Date().toISOString();
    const body = JSON.stringify(payload);
    const signature = `sha256=${createHmac('sha256', sub.secret)
      .update(id + timestamp + body)
      .digest('hex')}`;
    try {
      const res = await fetch(sub.callback, {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json',
          'Twitch-Eventsub-Message-Id': id,
          'Twitch-Eventsub-Message-Timestamp': timestamp,
          'Twitch-Eventsub-Message-Signature': signature,
          'Twitch-Eventsub-Message-Type': type,
          'Twitch-Eventsub-Subscription-Type': sub.type,
        },
        body,
      });
      const text = await res.text();
      this.deliveries.push({ type, status: res.status });
      return { status: res.status, text };
    } catch {
      this.deliveries.push({ type, status: 0 });
      return { status: 0, text: '' };
    }
  }

  private subscribe(headers: import('node:http').IncomingHttpHeaders, body: string): Answer {
    const token = /^Bearer (\S+)$/i.exec(headers.authorization ?? '')?.[1];
    if (headers['client-id'] !== this.clientId || !token || !this.appTokens.has(token)) {
      return { status: 401, body: { error: 'Unauthorized', status: 401, message: 'Invalid OAuth token' } };
    }
    const req = JSON.parse(body) as {
      type: string;
      condition: { broadcaster_user_id: string };
      transport: { method: string; callback: string; secret: string };
    };
    const exists = this.subscriptions.find(
      (s) =>
        s.type === req.type &&
        s.broadcasterId === req.condition.broadcaster_user_id &&
        s.status !== 'webhook_callback_verification_failed',
    );
    if (exists)
      return {
        status: 409,
        body: { error: 'Conflict', status: 409, message: 'subscription already exists' },
      };
    const sub = {
      id: randomUUID(),
      type: req.type,
      broadcasterId: req.condition.broadcaster_user_id,
      callback: req.transport.callback,
      secret: req.transport.secret,
      status: 'webhook_callback_verification_pending' as FakeTwitch['subscriptions'][number]['status'],
    };
    this.subscriptions.push(sub);
    const challenge = randomBytes(16).toString('hex');
    void this.deliver(sub, 'webhook_callback_verification', {
      challenge,
      subscription: { id: sub.id, type: sub.type, version: '1', status: sub.status },
    }).then((r) => {
      sub.status =
        r.status === 200 && r.text === challenge ? 'enabled' : 'webhook_callback_verification_failed';
    });
    return { status: 202, body: { data: [{ id: sub.id, status: sub.status, type: sub.type }], total: 1 } };
  }

  protected route(method: string, path: string): Route | undefined {
    const routes: Record<string, Route> = {
      'GET /oauth2/authorize': (_req, url) =>
        url.searchParams.get('force_verify') === 'true' && this.signedInLogin
          ? this.consentPage(url)
          : this.authorize(url.searchParams),
      'POST /oauth2/authorize': (_req, _url, body) => this.authorize(new URLSearchParams(body)),
      'GET /oauth2/validate': (req) => this.validate(req.headers.authorization),
      'POST /oauth2/token': (_req, _url, body) => this.token(new URLSearchParams(body)),
      'GET /helix/streams': (req, url) => this.streams(req.headers, url),
      'POST /helix/eventsub/subscriptions': (req, _url, body) => this.subscribe(req.headers, body),
      'POST /_fake/authorize-as': (_req, _url, body) => ({
        status: 200,
        body: this.authorizeAs(String(JSON.parse(body).login)),
      }),
      'PUT /_fake/live': (_req, _url, body) => {
        const { login, live, viewers } = JSON.parse(body) as {
          login: string;
          live: boolean;
          viewers?: number;
        };
        this.setLive(login, live, viewers);
        return { status: 200, body: { login, live } };
      },
    };
    return routes[`${method} ${path}`];
  }

  /**
   * The page Twitch shows in the popup before it returns (a committed document of Twitch's origin, as in
   * reality: what the app's cross-origin opener policy must let the popup come back from).
   */
  private consentPage(url: URL): Answer {
    const invalid = this.invalidClient(url.searchParams);
    if (invalid) return invalid;
    const html = (v: string) => v.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
    const hidden = [...url.searchParams]
      .map(([k, v]) => `<input type="hidden" name="${html(k)}" value="${html(v)}">`)
      .join('');
    return {
      status: 200,
      raw: `<!doctype html><html lang="en"><head><title>Authorize - Twitch</title></head><body>
<main><h1>Authorize application</h1><p>Signed in as ${html(this.signedInLogin ?? '')}</p>
<form method="post" action="/oauth2/authorize">${hidden}
<button type="submit" name="consent" value="allow">Authorize</button>
<button type="submit" name="consent" value="cancel">Cancel</button></form></main></body></html>`,
    };
  }

  private invalidClient(params: URLSearchParams): Answer | undefined {
    if (params.get('client_id') !== this.clientId || !params.get('redirect_uri')) {
      return { status: 400, body: { status: 400, message: 'invalid client' } };
    }
    return undefined;
  }

  private authorize(params: URLSearchParams): Answer {
    const invalid = this.invalidClient(params);
    if (invalid) return invalid;
    const target = new URL(params.get('redirect_uri') ?? '');
    if (!this.signedInLogin || params.get('consent') === 'cancel') {
      target.hash = new URLSearchParams({
        error: 'access_denied',
        error_description: 'The user denied you access',
        state: params.get('state') ?? '',
      }).toString();
    } else {
      const token = this.issueUserToken(this.signedInLogin);
      target.hash = new URLSearchParams({
        access_token: token,
        scope: params.get('scope') ?? '',
        state: params.get('state') ?? '',
        token_type: 'bearer',
      }).toString();
    }
    return { status: 302, headers: { location: target.toString() } };
  }

  private validate(header: string | undefined): Answer {
    const token = /^OAuth (\S+)$/i.exec(header ?? '')?.[1];
    const t = token ? this.userTokens.get(token) : undefined;
    if (!t || t.revoked || t.expiresAtMs <= Date.now()) {
      return { status: 401, body: { status: 401, message: 'invalid access token' } };
    }
    const user = [...this.users.values()].find((u) => u.id === t.userId)!;
    return {
      status: 200,
      body: {
        client_id: t.clientId,
        login: user.login,
        scopes: [],
        user_id: user.id,
        expires_in: Math.floor((t.expiresAtMs - Date.now()) / 1000),
      },
    };
  }

  private token(form: URLSearchParams): Answer {
    if (form.get('grant_type') !== 'client_credentials') {
      return { status: 400, body: { status: 400, message: 'unsupported grant type' } };
    }
    if (form.get('client_id') !== this.clientId) {
      return { status: 400, body: { status: 400, message: 'invalid client' } };
    }
    if (form.get('client_secret') !== this.clientSecret) {
      return { status: 403, body: { status: 403, message: 'invalid client secret' } };
    }
    const token = randomBytes(15).toString('hex');
    this.appTokens.add(token);
    this.appTokensIssued++;
    return { status: 200, body: { access_token: token, expires_in: 5_011_271, token_type: 'bearer' } };
  }

  private streams(headers: import('node:http').IncomingHttpHeaders, url: URL): Answer {
    const token = /^Bearer (\S+)$/i.exec(headers.authorization ?? '')?.[1];
    if (headers['client-id'] !== this.clientId || !token || !this.appTokens.has(token)) {
      return { status: 401, body: { error: 'Unauthorized', status: 401, message: 'Invalid OAuth token' } };
    }
    const ids = new Set(url.searchParams.getAll('user_id'));
    for (const login of url.searchParams.getAll('user_login')) {
      const user = this.users.get(login.toLowerCase());
      if (user) ids.add(user.id);
    }
    if (ids.size > 100) return { status: 400, body: { status: 400, message: 'too many ids' } };
    const data = [...ids]
      .filter((id) => this.live.has(id))
      .map((id) => {
        const user = [...this.users.values()].find((u) => u.id === id)!;
        return {
          id: `stream-${id}`,
          user_id: id,
          user_login: user.login,
          user_name: user.login,
          game_id: '509658',
          type: 'live',
          title: 'Fake stream',
          viewer_count: this.live.get(id) ?? 0,
          started_at: new Date().toISOString(),
          language: 'en',
          thumbnail_url: '',
          tags: [],
          is_mature: false,
        };
      });
    const loginOf = (id: string) => [...this.users.values()].find((u) => u.id === id)?.login ?? id;
    this.streamAnswers.push({ asked: [...ids].map(loginOf), live: data.map((d) => d.user_login) });
    return { status: 200, body: { data, pagination: {} } };
  }
}
