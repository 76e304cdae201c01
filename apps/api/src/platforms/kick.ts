// Kick (docs: KickEngineering/KickDevDocs): OAuth 2.1 with PKCE at id.kick.com for verification
// (the user from /public/v1/users, the channel's slug from /public/v1/channels), and live detection from the
// public channels endpoint (stream.is_live, stream.viewer_count) polled for every watched channel at once
// (25 a request: larger batches answer a wrong is_live, docs/platforms-youtube-kick.md#kick) with an app token (client credentials), as Twitch's Helix. With KICK_WEBHOOKS=on the
// `livestream.status.updated` webhook ends a session at once; each is verified against Kick's RSA public key
// (PKCS#1 v1.5, SHA-256 over `${messageId}.${timestamp}.${body}`) before anything in it is trusted, and
// polling stays the fallback, as Twitch has EventSub and polling.
import { createPublicKey, createVerify, type KeyObject } from 'node:crypto';
import { SERVER_MESSAGES } from '@strm/shared';
import { z } from 'zod';
import type { Logger } from '../logger.ts';
import type { LiveStatus, PlatformAccountRef } from './adapter.ts';
import { normaliseUsername } from './adapter.ts';
import { expectJson, malformed, PlatformError, platformFetch } from './fetch.ts';
import { CachedToken, codeGrantUrl, exchangeCode, requestToken, type TokenEndpoint } from './oauth-code.ts';
import { KickSubscriber } from './kick-subscriber.ts';
import { type KickSubscriptionStore, memoryKickSubscriptions } from './kick-subscriptions.ts';
import { type WebhookAnswer, WebhookInbox, webhookHeaders } from './webhook-inbox.ts';
import { keyOf, type PollOptions, PolledPlatform } from './polled.ts';

const LABEL = 'Kick';
/**
 * Channels asked per request. Kick takes 50, but batches that large answer is_live false for about half of
 * the live channels, as Kick's developers' tracker reports; 25 or fewer answer right (docs/platforms-youtube-kick.md#kick).
 */
export const KICK_CHANNELS_PAGE = 25;
/**
 * What a streamer grants: who they are and their channel. Not events:subscribe: the app's own token makes the
 * subscriptions (docs/platforms-youtube-kick.md#kick-subscriptions).
 */
export const KICK_SCOPES = 'user:read channel:read';
/** Older messages are refused (replays), as Twitch's EventSub. */
const WEBHOOK_MAX_AGE_MS = 10 * 60_000;
/** A signature that fails with the key held fetches Kick's key again at most this often (key rotation). */
const KEY_REFETCH_MS = 60_000;
/** After a failed key fetch, the next waits this long, doubling to KEY_FAILED_MAX_MS while they fail. */
const KEY_FAILED_MS = 5_000;
const KEY_FAILED_MAX_MS = 300_000;

export const KICK_MESSAGES = {
  notConfigured: SERVER_MESSAGES.kickNotConfigured,
  unavailable: 'Failed to connect to Kick Live',
  codeRefused: 'Kick did not accept this authorization. Please connect with Kick again.',
  tokenInvalid: 'Your Kick authorization has expired or was revoked. Please connect with Kick again.',
  noChannel: 'This Kick account has no channel.',
} as const;

export interface KickOptions extends PollOptions {
  clientId: string | undefined;
  clientSecret: string | undefined;
  /** https://id.kick.com (/oauth/authorize, /oauth/token). */
  authBaseUrl: string;
  /** https://api.kick.com (/public/v1/…). */
  apiBaseUrl: string;
  redirectUri: string;
  httpTimeoutMs: number;
  /** Subscribe to livestream.status.updated (the webhook URL is the one set in the app's settings on Kick). */
  webhooks: boolean;
}

export interface KickAccount {
  /** broadcaster_user_id: the account's external id. */
  id: string;
  /** The channel's slug (lower case). */
  username: string;
}

const usersSchema = z.object({
  data: z.array(z.object({ user_id: z.coerce.string(), name: z.string() })),
});
const channelsSchema = z.object({
  data: z.array(
    z.object({
      broadcaster_user_id: z.coerce.string(),
      slug: z.string(),
      stream: z
        .object({ is_live: z.boolean(), viewer_count: z.number().int().nonnegative().optional() })
        .nullable()
        .optional(),
    }),
  ),
});
const publicKeySchema = z.object({ data: z.object({ public_key: z.string().min(1) }) });
/** Every this many polls, Kick's list of subscriptions is read to re-make those Kick dropped. */
const SUBSCRIPTION_CHECK_ROUNDS = 10;
const statusEventSchema = z.object({
  broadcaster: z.object({ user_id: z.coerce.string(), channel_slug: z.string().optional() }),
  is_live: z.boolean(),
});

export class KickPlatform extends PolledPlatform {
  readonly platform = 'kick' as const;
  private readonly appToken: CachedToken;
  /** Its event subscriptions, kept with every instance's (docs/platforms-youtube-kick.md#kick-subscriptions). */
  private readonly subscriber: KickSubscriber;
  private rounds = 0;
  private publicKey: { key: KeyObject; fetchedAtMs: number } | null = null;
  /** The key's fetch in flight: every webhook waiting for a key waits for this one request. */
  private keyFetch: Promise<KeyObject> | null = null;
  /** After a fetch failed: no other before this time (doubling up to KEY_FAILED_MAX_MS). */
  private keyFailed: { untilMs: number; backoffMs: number } | null = null;

  constructor(
    private readonly options: KickOptions,
    private readonly logger: Logger,
    private readonly inbox = new WebhookInbox(logger),
    subscriptions: KickSubscriptionStore = memoryKickSubscriptions(),
  ) {
    super(LABEL, options, logger);
    this.subscriber = new KickSubscriber(
      {
        apiBaseUrl: options.apiBaseUrl,
        httpTimeoutMs: options.httpTimeoutMs,
        logger,
        appToken: () => this.appToken.get(),
        get: (url) => this.withAppToken(url),
      },
      subscriptions,
      (broadcasterId) => this.poller.watching(`id:${broadcasterId}`),
      logger,
    );
    this.appToken = new CachedToken(() => {
      if (!this.configured) {
        this.logger.error('KICK_CLIENT_ID and KICK_CLIENT_SECRET are needed for Kick live detection');
        throw new PlatformError('unavailable', KICK_MESSAGES.notConfigured);
      }
      return requestToken(this.tokenEndpoint(KICK_MESSAGES.unavailable), {
        grant_type: 'client_credentials',
        client_id: this.options.clientId ?? '',
        client_secret: this.options.clientSecret ?? '',
      }).catch((err: unknown) => {
        if (err instanceof PlatformError && err.kind === 'unauthorized') {
          this.logger.error('Kick refused the app credentials (KICK_CLIENT_SECRET?)');
          throw new PlatformError('unavailable', KICK_MESSAGES.unavailable);
        }
        throw err;
      });
    });
  }

  get configured(): boolean {
    return Boolean(this.options.clientId && this.options.clientSecret);
  }

  /** GET /kick/auth: Kick's consent page (code grant, PKCE S256). */
  authorizeUrl(state: string, codeChallenge: string): string {
    if (!this.configured) throw new PlatformError('unavailable', KICK_MESSAGES.notConfigured);
    return codeGrantUrl(`${this.options.authBaseUrl}/oauth/authorize`, {
      clientId: this.options.clientId!,
      redirectUri: this.options.redirectUri,
      scope: KICK_SCOPES,
      state,
      codeChallenge,
    });
  }

  /** The code exchanged with its verifier; then who the user is and which channel is theirs. */
  async verify(code: string, codeVerifier: string): Promise<KickAccount> {
    const tokens = await exchangeCode(
      this.tokenEndpoint(KICK_MESSAGES.codeRefused),
      this.options,
      code,
      codeVerifier,
    );
    const usersUrl = `${this.options.apiBaseUrl}/public/v1/users`;
    const users = usersSchema.safeParse(await this.get(usersUrl, tokens.access_token));
    if (!users.success) throw malformed(LABEL, this.logger, usersUrl, users.error.issues[0]);
    const user = users.data.data[0];
    if (!user) throw malformed(LABEL, this.logger, usersUrl, 'no user');
    const channelsUrl = `${this.options.apiBaseUrl}/public/v1/channels`;
    const channels = channelsSchema.safeParse(await this.get(channelsUrl, tokens.access_token));
    if (!channels.success) throw malformed(LABEL, this.logger, channelsUrl, channels.error.issues[0]);
    const channel = channels.data.data.find((c) => c.broadcaster_user_id === user.user_id);
    if (!channel) throw new PlatformError('not-found', KICK_MESSAGES.noChannel);
    return { id: user.user_id, username: normaliseUsername(channel.slug) };
  }

  async liveStatus(account: PlatformAccountRef): Promise<LiveStatus> {
    const statuses = await this.statuses([account]);
    return statuses.get(keyOf(account)) ?? { live: false, viewers: 0 };
  }

  override watch(account: PlatformAccountRef, onChange: (status: LiveStatus) => void): () => void {
    const broadcaster = this.options.webhooks ? account.externalId : null;
    const unwatch = super.watch(account, onChange);
    // Logs its own failures; subscriptionsSettled awaits it.
    if (broadcaster) this.subscriber.subscribe(broadcaster);
    return () => {
      unwatch();
      // A subscription no session needs is deleted (a verified app has a subscription limit).
      if (broadcaster && !this.poller.watching(keyOf(account))) this.subscriber.release(broadcaster);
    };
  }

  /** GET /public/v1/channels by broadcaster_user_id (KICK_CHANNELS_PAGE a request), else by slug. */
  protected async statuses(accounts: PlatformAccountRef[]): Promise<Map<string, LiveStatus>> {
    if (this.options.webhooks && ++this.rounds % SUBSCRIPTION_CHECK_ROUNDS === 0) {
      this.checkSubscriptions(accounts).catch((err: unknown) =>
        this.logger.warn({ err }, 'Kick subscriptions could not be checked'),
      );
    }
    const result = new Map<string, LiveStatus>();
    const byId = accounts.filter((a) => a.externalId);
    const bySlug = accounts.filter((a) => !a.externalId);
    const pages: Array<{ param: string; values: string[]; accounts: PlatformAccountRef[] }> = [];
    for (let i = 0; i < byId.length; i += KICK_CHANNELS_PAGE) {
      const page = byId.slice(i, i + KICK_CHANNELS_PAGE);
      pages.push({ param: 'broadcaster_user_id', values: page.map((a) => a.externalId!), accounts: page });
    }
    for (let i = 0; i < bySlug.length; i += KICK_CHANNELS_PAGE) {
      const page = bySlug.slice(i, i + KICK_CHANNELS_PAGE);
      pages.push({ param: 'slug', values: page.map((a) => normaliseUsername(a.username)), accounts: page });
    }
    for (const page of pages) {
      const url = new URL(`${this.options.apiBaseUrl}/public/v1/channels`);
      for (const v of page.values) url.searchParams.append(page.param, v);
      const parsed = channelsSchema.safeParse(await this.withAppToken(url.toString()));
      if (!parsed.success) throw malformed(LABEL, this.logger, url.toString(), parsed.error.issues[0]);
      // A channel missing from the answer (an unknown slug answers 200 with an empty list) is unknown this
      // round, not offline: the poller's fail-closed rule ends it if it stays unknown.
      for (const channel of parsed.data.data) {
        const live = channel.stream?.is_live === true;
        const status = { live, viewers: live ? (channel.stream?.viewer_count ?? 0) : 0 };
        result.set(`id:${channel.broadcaster_user_id}`, status);
        result.set(`login:${channel.slug.toLowerCase()}`, status);
      }
    }
    return result;
  }

  /** POST /kick/webhook: Kick's signature first; then stale or repeated messages; then the event. */
  async handleWebhook(
    headers: Record<string, string | string[] | undefined>,
    rawBody: Buffer,
  ): Promise<WebhookAnswer> {
    if (!this.options.webhooks) return { status: 404 };
    const message = webhookHeaders(headers, {
      id: 'kick-event-message-id',
      timestamp: 'kick-event-message-timestamp',
      signature: 'kick-event-signature',
      type: 'kick-event-type',
    });
    if (!message) return { status: 400 };
    const { id, timestamp, signature, type } = message;
    if (!(await this.signedByKick(id, timestamp, rawBody, signature))) {
      this.logger.warn({ id, type }, 'Kick webhook with a bad signature refused');
      return { status: 403 };
    }
    const admitted = await this.inbox.admit('kick', id, timestamp, WEBHOOK_MAX_AGE_MS);
    if (admitted === 'bad_timestamp') return { status: 400 };
    // Acknowledged and ignored: a replay changes nothing, and Kick drops a subscription whose deliveries fail.
    if (admitted !== 'new') return { status: 200 };
    if (type !== 'livestream.status.updated') return { status: 200 };
    let event: z.infer<typeof statusEventSchema>;
    try {
      event = statusEventSchema.parse(JSON.parse(rawBody.toString('utf8')));
    } catch {
      return { status: 400 };
    }
    if (event.is_live) {
      // A stream that started: confirmed by the next poll (its viewers too).
      this.pollNow().catch((err: unknown) => this.logger.warn({ err }, 'Kick poll after a webhook failed'));
    } else {
      const slug = event.broadcaster.channel_slug;
      await this.announceEnded([
        `id:${event.broadcaster.user_id}`,
        ...(slug ? [`login:${slug.toLowerCase()}`] : []),
      ]);
    }
    return { status: 200 };
  }

  /** RSA PKCS#1 v1.5 with SHA-256 over `${id}.${timestamp}.${body}`, base64 in Kick-Event-Signature. */
  private async signedByKick(id: string, timestamp: string, body: Buffer, signature: string) {
    const check = (key: KeyObject) =>
      createVerify('RSA-SHA256')
        .update(`${id}.${timestamp}.`)
        .update(body)
        .verify(key, Buffer.from(signature, 'base64'));
    try {
      const held = this.publicKey;
      if (held && check(held.key)) return true;
      // A badly signed request asks Kick for its key at most once a minute while one is held, and not at all
      // while a failed fetch backs off: forged requests cannot turn into requests to Kick.
      if (held && Date.now() - held.fetchedAtMs < KEY_REFETCH_MS) return false;
      if (this.keyFailed && Date.now() < this.keyFailed.untilMs) return false;
      return check(await this.currentKey());
    } catch (err) {
      this.logger.warn({ err }, 'Kick webhook signature could not be checked');
      return false;
    }
  }

  /** The key, fetched once for all the webhooks waiting on it; a failure backs further fetches off. */
  private currentKey(): Promise<KeyObject> {
    this.keyFetch ??= this.fetchPublicKey()
      .then((key) => {
        this.keyFailed = null;
        return key;
      })
      .catch((err: unknown) => {
        const backoffMs = Math.min(KEY_FAILED_MAX_MS, (this.keyFailed?.backoffMs ?? KEY_FAILED_MS / 2) * 2);
        this.keyFailed = { untilMs: Date.now() + backoffMs, backoffMs };
        throw err;
      })
      .finally(() => {
        this.keyFetch = null;
      });
    return this.keyFetch;
  }

  /** GET /public/v1/public-key (no token needed). */
  private async fetchPublicKey(): Promise<KeyObject> {
    const url = `${this.options.apiBaseUrl}/public/v1/public-key`;
    const res = await platformFetch(LABEL, url, { timeoutMs: this.options.httpTimeoutMs }, this.logger);
    const parsed = publicKeySchema.safeParse(expectJson(LABEL, res, this.logger, url));
    if (!parsed.success) throw malformed(LABEL, this.logger, url, parsed.error.issues[0]);
    const key = createPublicKey(parsed.data.data.public_key);
    this.publicKey = { key, fetchedAtMs: Date.now() };
    return key;
  }

  /** Resolves once every subscription being made, deleted or checked here is (tests; a clean shutdown). */
  subscriptionsSettled(): Promise<void> {
    return this.subscriber.settled();
  }

  /**
   * Kick's list against the shared rows, by one instance at a time: one Kick dropped (after a day of failed
   * deliveries) is made again, duplicates and unneeded ones deleted
   * (docs/platforms-youtube-kick.md#kick-subscriptions). Run every SUBSCRIPTION_CHECK_ROUNDS polls.
   */
  checkSubscriptions(accounts: PlatformAccountRef[]): Promise<boolean> {
    return this.subscriber.check(accounts.flatMap((a) => (a.externalId ? [a.externalId] : [])));
  }

  /** A GET with the app token; a 401 gets one new token and one retry. */
  private async withAppToken(url: string, retried = false): Promise<unknown> {
    const token = await this.appToken.get();
    try {
      return await this.get(url, token);
    } catch (err) {
      if (err instanceof PlatformError && err.kind === 'unauthorized') {
        this.appToken.clear();
        if (!retried) return this.withAppToken(url, true);
        this.logger.error('Kick refused a fresh app access token');
        throw new PlatformError('unavailable', KICK_MESSAGES.unavailable);
      }
      throw err;
    }
  }

  private async get(url: string, bearer: string): Promise<unknown> {
    const res = await platformFetch(
      LABEL,
      url,
      {
        headers: { Authorization: `Bearer ${bearer}`, Accept: 'application/json' },
        timeoutMs: this.options.httpTimeoutMs,
      },
      this.logger,
    );
    if (res.status === 401) throw new PlatformError('unauthorized', KICK_MESSAGES.tokenInvalid);
    if (res.status === 400 || res.status === 403) {
      this.logger.warn({ status: res.status, body: res.text.slice(0, 200) }, 'Kick refused a request');
      throw new PlatformError('unavailable', KICK_MESSAGES.unavailable);
    }
    return expectJson(LABEL, res, this.logger, url);
  }

  private tokenEndpoint(refusedMessage: string): TokenEndpoint {
    return {
      label: LABEL,
      url: `${this.options.authBaseUrl}/oauth/token`,
      timeoutMs: this.options.httpTimeoutMs,
      logger: this.logger,
      refusedMessage,
    };
  }
}
