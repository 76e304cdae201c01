// A local fake of the Kick endpoints the API uses, answering as KickEngineering/KickDevDocs documents them:
// - GET/POST /oauth/authorize (code grant, PKCE S256 required): a consent page, then
//   redirect_uri?code=…&state=… as the signed-in user (`authorizeAs`), or ?error=access_denied;
// - POST /oauth/token: authorization_code (with code_verifier), refresh_token, client_credentials;
// - GET /public/v1/users (Bearer user token): the user (user_id, name);
// - GET /public/v1/channels (Bearer): the token's own channel without parameters, else by
//   broadcaster_user_id or slug (at most 50): slug, stream.is_live, stream.viewer_count;
// - GET /public/v1/public-key: the PEM of the key webhooks are signed with (a test RSA key made here);
// - GET /public/v1/events/subscriptions (?broadcaster_user_id=…): the app's subscriptions;
//   DELETE /public/v1/events/subscriptions?id=…: removes them (204). A repeated POST makes a duplicate, as
//   Kick's does (as its developers' tracker reports), and `dropSubscriptions` removes them as Kick does after a day of
//   failed deliveries;
// - POST /public/v1/events/subscriptions: livestream.status.updated, delivered when the channel's stream starts
//   or ends to `webhookUrl` (the app's webhook URL, set in its settings on Kick) with Kick-Event-* headers and
//   Kick-Event-Signature = base64(RSA PKCS#1 v1.5 SHA-256 of `${messageId}.${timestamp}.${body}`).
// Control: in process (methods below) or over HTTP under /_fake. `misbehave` switches on, per test, what the
// real Kick does wrong, as its developers' tracker reports: a wrong is_live for live channels in large
// batches, channels missing from an answer (an unknown slug answers 200 with an empty list), a per-event
// error on a subscription, and the auto-unsubscribe of a subscription whose deliveries keep failing.
import { createSign, generateKeyPairSync, type KeyObject, randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { type Answer, FakeHttpServer, type Route } from './fake-http.ts';
import { FakeOAuthServer } from './fake-oauth.ts';

interface KickUser {
  id: number;
  slug: string;
}

/** Kick's documented misbehaviours, each off unless a test sets it. */
export interface KickMisbehaviour {
  /**
   * Batches of more channels than this answer is_live false for every other live channel in them (Kick's
   * developers' tracker reports about half wrong at 50, and 20-25 reliable).
   */
  wrongIsLiveAbove?: number;
  /** Slugs left out of every channels answer while set (as an unknown slug: 200 with the others only). */
  missing?: Set<string>;
  /** POST /events/subscriptions answers 200 with this `error` on each event instead of a subscription. */
  subscriptionError?: string;
  /**
   * Kick's auto-unsubscribe: a subscription whose deliveries failed (no 2xx) this many times in a row is
   * removed (Kick does so after a day of failures; here it takes a count).
   */
  unsubscribeAfterFailedDeliveries?: number;
}

const unauthorized: Answer = { status: 401, body: { data: {}, message: 'Unauthorized' } };

export class FakeKick extends FakeHttpServer {
  readonly oauth: FakeOAuthServer;
  readonly users = new Map<string, KickUser>();
  private readonly live = new Map<number, number>();
  private readonly privateKey: KeyObject;
  readonly publicKeyPem: string;
  /** The app's webhook URL (Kick sends every subscribed event there). */
  webhookUrl: string | null = null;
  readonly subscriptions: Array<{ id: string; broadcasterId: number; event: string }> = [];
  /** Webhooks delivered, with the status the app answered. */
  readonly deliveries: Array<{ type: string; status: number }> = [];
  /** Per subscription id: deliveries failed in a row (misbehave.unsubscribeAfterFailedDeliveries). */
  private readonly failedDeliveries = new Map<string, number>();
  private nextId = 51_000_000;
  /** What this fake does wrong now (see KickMisbehaviour); empty: it answers as documented. */
  misbehave: KickMisbehaviour = {};
  /** How many channels each GET /public/v1/channels asked for, in order. */
  readonly channelBatches: number[] = [];
  /** Channels answered with a wrong is_live (false while live), by misbehave.wrongIsLiveAbove. */
  wrongReads = 0;

  constructor(
    readonly clientId = 'fake-kick-client-id',
    readonly clientSecret = 'fake-kick-client-secret',
  ) {
    super();
    this.oauth = new FakeOAuthServer(clientId, clientSecret, '/oauth/authorize', 'STRM (Kick)', false);
    const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    this.privateKey = privateKey;
    this.publicKeyPem = publicKey.export({ type: 'spki', format: 'pem' }).toString();
  }

  env(): Record<string, string> {
    return {
      KICK_CLIENT_ID: this.clientId,
      KICK_CLIENT_SECRET: this.clientSecret,
      KICK_AUTH_BASE_URL: this.url,
      KICK_API_BASE_URL: this.url,
    };
  }

  addUser(slug: string): KickUser {
    const key = slug.toLowerCase();
    const existing = this.users.get(key);
    if (existing) return existing;
    const user = { id: this.nextId++, slug: key };
    this.users.set(key, user);
    return user;
  }

  authorizeAs(slug: string): KickUser {
    const user = this.addUser(slug);
    this.oauth.signedIn = String(user.id);
    return user;
  }

  /** Invalidates every app token (the client must get a new one). */
  revokeAppTokens(): void {
    for (const t of this.oauth.accessTokens.values()) if (t.subject === 'app') t.revoked = true;
  }

  setLive(slug: string, live: boolean, viewers = 0): void {
    const user = this.addUser(slug);
    const was = this.live.has(user.id);
    if (live) this.live.set(user.id, viewers);
    else this.live.delete(user.id);
    if (was !== live) {
      for (const sub of this.subscriptions) {
        if (sub.broadcasterId === user.id && sub.event === 'livestream.status.updated') {
          void this.deliver('livestream.status.updated', this.statusEvent(user, live), {
            subscriptionId: sub.id,
          });
        }
      }
    }
  }

  statusEvent(user: KickUser, live: boolean): unknown {
    return {
      broadcaster: {
        is_anonymous: false,
        user_id: user.id,
        username: user.slug,
        is_verified: false,
        profile_picture: '',
        channel_slug: user.slug,
        identity: null,
      },
      is_live: live,
      title: 'Fake stream',
      started_at: new Date().toISOString(),
      ended_at: live ? null : new Date().toISOString(),
    };
  }

  /** Signs and posts an event to `webhookUrl`; `tamper` breaks the signature (or signs with another key). */
  async deliver(
    type: string,
    payload: unknown,
    opts: {
      tamper?: 'signature' | 'body';
      timestamp?: string;
      messageId?: string;
      subscriptionId?: string;
    } = {},
  ): Promise<number> {
    if (!this.webhookUrl) return 0;
    const id = opts.messageId ?? randomUUID().replace(/-/g, '').toUpperCase().slice(0, 26);
    const timestamp = opts.timestamp ?? new Date().toISOString();
    const body = JSON.stringify(payload);
    let signature = createSign('RSA-SHA256')
      .update(`${id}.${timestamp}.${body}`)
      .sign(this.privateKey, 'base64');
    if (opts.tamper === 'signature') {
      const other = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
      signature = createSign('RSA-SHA256').update(`${id}.${timestamp}.${body}`).sign(other, 'base64');
    }
    const sent = opts.tamper === 'body' ? body.replace('"is_live":false', '"is_live":true') : body;
    try {
      const res = await fetch(this.webhookUrl, {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json',
          'Kick-Event-Message-Id': id,
          'Kick-Event-Subscription-Id': opts.subscriptionId ?? this.subscriptions[0]?.id ?? randomUUID(),
          'Kick-Event-Signature': signature,
          'Kick-Event-Message-Timestamp': timestamp,
          'Kick-Event-Type': type,
          'Kick-Event-Version': '1',
        },
        body: sent,
      });
      await res.text();
      this.deliveries.push({ type, status: res.status });
      this.delivered(opts.subscriptionId, res.status);
      return res.status;
    } catch {
      this.deliveries.push({ type, status: 0 });
      this.delivered(opts.subscriptionId, 0);
      return 0;
    }
  }

  /** Counts a subscription's failed deliveries in a row; past the limit set, Kick removes it. */
  private delivered(subscriptionId: string | undefined, status: number): void {
    if (!subscriptionId) return;
    if (status >= 200 && status < 300) {
      this.failedDeliveries.delete(subscriptionId);
      return;
    }
    const failed = (this.failedDeliveries.get(subscriptionId) ?? 0) + 1;
    this.failedDeliveries.set(subscriptionId, failed);
    const limit = this.misbehave.unsubscribeAfterFailedDeliveries;
    if (limit !== undefined && failed >= limit) {
      const at = this.subscriptions.findIndex((sub) => sub.id === subscriptionId);
      if (at >= 0) this.subscriptions.splice(at, 1);
    }
  }

  protected route(method: string, path: string): Route | undefined {
    const routes: Record<string, Route> = {
      'GET /oauth/authorize': (_req, url) => this.oauth.authorizePage(url.searchParams),
      'POST /oauth/authorize': (_req, _url, body) => this.oauth.decide(new URLSearchParams(body)),
      'POST /oauth/token': (_req, _url, body) => this.oauth.token(new URLSearchParams(body)),
      'GET /public/v1/users': (req) => this.usersList(req),
      'GET /public/v1/channels': (req, url) => this.channels(req, url),
      'GET /public/v1/public-key': () => ({
        status: 200,
        body: { data: { public_key: this.publicKeyPem }, message: 'OK' },
      }),
      'POST /public/v1/events/subscriptions': (req, _url, body) => this.subscribe(req, body),
      'GET /public/v1/events/subscriptions': (req, url) => this.listSubscriptions(req, url),
      'DELETE /public/v1/events/subscriptions': (req, url) => this.deleteSubscriptions(req, url),
      'POST /_fake/authorize-as': (_req, _url, body) => ({
        status: 200,
        body: this.authorizeAs(String(JSON.parse(body).slug)),
      }),
      'PUT /_fake/live': (_req, _url, body) => {
        const { slug, live, viewers } = JSON.parse(body) as { slug: string; live: boolean; viewers?: number };
        this.setLive(slug, live, viewers);
        return { status: 200, body: { slug, live } };
      },
      'PUT /_fake/webhook-url': (_req, _url, body) => {
        this.webhookUrl = String(JSON.parse(body).url);
        return { status: 200, body: { url: this.webhookUrl } };
      },
    };
    return routes[`${method} ${path}`];
  }

  private userById(id: string | null): KickUser | undefined {
    return [...this.users.values()].find((u) => String(u.id) === id);
  }

  private usersList(req: IncomingMessage): Answer {
    const subject = this.oauth.bearer(req.headers.authorization);
    const user = this.userById(subject);
    if (!user) return unauthorized;
    return {
      status: 200,
      body: {
        data: [{ user_id: user.id, name: user.slug, email: `${user.slug}@example.com`, profile_picture: '' }],
        message: 'OK',
      },
    };
  }

  private channelData(user: KickUser, wrongIfLive = false) {
    let viewers = this.live.get(user.id);
    if (wrongIfLive && viewers !== undefined) {
      viewers = undefined;
      this.wrongReads++;
    }
    return {
      broadcaster_user_id: user.id,
      slug: user.slug,
      channel_description: '',
      banner_picture: '',
      stream_title: 'Fake stream',
      category: { id: 1, name: 'Just Chatting', thumbnail: '' },
      stream: {
        url: '',
        key: '',
        is_live: viewers !== undefined,
        is_mature: false,
        language: 'en',
        start_time: viewers !== undefined ? new Date().toISOString() : '0001-01-01T00:00:00Z',
        viewer_count: viewers ?? 0,
        thumbnail: '',
      },
    };
  }

  private channels(req: IncomingMessage, url: URL): Answer {
    const subject = this.oauth.bearer(req.headers.authorization);
    if (!subject) return unauthorized;
    const ids = url.searchParams.getAll('broadcaster_user_id');
    const slugs = url.searchParams.getAll('slug');
    if (ids.length && slugs.length) {
      return {
        status: 400,
        body: { data: {}, message: 'broadcaster_user_id and slug cannot be used together' },
      };
    }
    if (ids.length > 50 || slugs.length > 50)
      return { status: 400, body: { data: {}, message: 'too many values' } };
    let users: KickUser[];
    if (!ids.length && !slugs.length) {
      const own = this.userById(subject);
      users = own ? [own] : [];
    } else {
      users = [...this.users.values()].filter((u) => ids.includes(String(u.id)) || slugs.includes(u.slug));
    }
    const asked = ids.length + slugs.length;
    this.channelBatches.push(asked);
    const missing = this.misbehave.missing;
    if (missing) users = users.filter((u) => !missing.has(u.slug));
    const above = this.misbehave.wrongIsLiveAbove;
    let liveSeen = 0;
    const data = users.map((u) => {
      const wrong = above !== undefined && asked > above && this.live.has(u.id) && liveSeen++ % 2 === 1;
      return this.channelData(u, wrong);
    });
    return { status: 200, body: { data, message: 'OK' } };
  }

  /** Kick's auto-unsubscribe (a day of failed deliveries): the broadcaster's subscriptions are gone. */
  dropSubscriptions(broadcasterId: number): void {
    for (let i = this.subscriptions.length - 1; i >= 0; i--) {
      if (this.subscriptions[i]!.broadcasterId === broadcasterId) this.subscriptions.splice(i, 1);
    }
  }

  private listSubscriptions(req: IncomingMessage, url: URL): Answer {
    if (!this.oauth.bearer(req.headers.authorization)) return unauthorized;
    const broadcaster = url.searchParams.get('broadcaster_user_id');
    const data = this.subscriptions
      .filter((sub) => !broadcaster || String(sub.broadcasterId) === broadcaster)
      .map((sub) => ({
        id: sub.id,
        app_id: this.clientId,
        broadcaster_user_id: sub.broadcasterId,
        event: sub.event,
        version: 1,
        method: 'webhook',
        created_at: new Date().toISOString(),
        updated_at: new Date().toISOString(),
      }));
    return { status: 200, body: { data, message: 'OK' } };
  }

  private deleteSubscriptions(req: IncomingMessage, url: URL): Answer {
    if (!this.oauth.bearer(req.headers.authorization)) return unauthorized;
    const ids = url.searchParams.getAll('id');
    for (let i = this.subscriptions.length - 1; i >= 0; i--) {
      if (ids.includes(this.subscriptions[i]!.id)) this.subscriptions.splice(i, 1);
    }
    return { status: 204 };
  }

  private subscribe(req: IncomingMessage, body: string): Answer {
    if (!this.oauth.bearer(req.headers.authorization)) return unauthorized;
    const request = JSON.parse(body) as {
      broadcaster_user_id?: number;
      events: Array<{ name: string; version: number }>;
      method: string;
    };
    if (request.method !== 'webhook' || !request.broadcaster_user_id) {
      return { status: 400, body: { data: {}, message: 'Bad Request' } };
    }
    const error = this.misbehave.subscriptionError;
    if (error) {
      return {
        status: 200,
        body: {
          data: request.events.map((e) => ({ name: e.name, version: e.version, error })),
          message: 'OK',
        },
      };
    }
    const data = request.events.map((e) => {
      const sub = { id: randomUUID(), broadcasterId: request.broadcaster_user_id!, event: e.name };
      this.subscriptions.push(sub);
      return { name: e.name, version: e.version, subscription_id: sub.id };
    });
    return { status: 200, body: { data, message: 'OK' } };
  }
}
