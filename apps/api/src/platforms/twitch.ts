// Twitch: the implicit-grant authorisation URL, token validation (id.twitch.tv/oauth2/validate) for
// verification, and live detection by the Helix streams API, polled for every watched channel at once
// (100 per request) with an app access token (client credentials).
//
// Why not @twurple/api + @twurple/auth: their request helper builds every URL from hard-coded hosts
// (`https://api.twitch.tv/helix/`, `https://id.twitch.tv/oauth2/`), so they cannot be pointed at the fake
// Twitch our tests run; the four calls we make are small enough to own, with their failures mapped here.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import type { Logger } from '../logger.ts';
import type { LiveStatus, PlatformAccountRef } from './adapter.ts';
import { normaliseUsername } from './adapter.ts';
import { expectJson, malformed, PlatformError, platformFetch } from './fetch.ts';
import { CachedToken, type TokenAnswer } from './oauth-code.ts';
import { type WebhookAnswer, WebhookInbox, webhookHeaders } from './webhook-inbox.ts';
import { keyOf, type PollOptions, PolledPlatform } from './polled.ts';

const LABEL = 'Twitch';
const HELIX_PAGE = 100;

export interface TwitchOptions extends PollOptions {
  clientId: string | undefined;
  clientSecret: string | undefined;
  authBaseUrl: string;
  apiBaseUrl: string;
  redirectUri: string;
  httpTimeoutMs: number;
  /** Webhook notifications (stream.offline) in addition to polling, with the secret Twitch signs them with. */
  eventSub?: { callbackUrl: string; secret: string } | undefined;
}

/** Twitch refuses notifications older than 10 minutes; so do we (replays). */
const EVENTSUB_MAX_AGE_MS = 10 * 60_000;
const eventSubSchema = z.object({
  subscription: z.object({
    id: z.string(),
    type: z.string(),
    status: z.string().optional(),
    condition: z.object({ broadcaster_user_id: z.string().optional() }).optional(),
  }),
  challenge: z.string().optional(),
  event: z
    .object({ broadcaster_user_id: z.string(), broadcaster_user_login: z.string().optional() })
    .optional(),
});

const validateSchema = z.object({
  client_id: z.string(),
  login: z.string().min(1),
  user_id: z.string().min(1),
  expires_in: z.number().int().nonnegative(),
  scopes: z.array(z.string()).nullable().optional(),
});
export type TwitchTokenInfo = z.infer<typeof validateSchema>;

const appTokenSchema = z.object({ access_token: z.string().min(1), expires_in: z.number().int().positive() });
const streamsSchema = z.object({
  data: z.array(
    z.object({
      user_id: z.string(),
      user_login: z.string(),
      type: z.string(),
      viewer_count: z.number().int().nonnegative(),
    }),
  ),
});

export const TWITCH_MESSAGES = {
  notConfigured: 'Twitch is not configured on this server',
  unavailable: 'Failed to connect to Twitch Live',
  tokenInvalid: 'Your Twitch authorization has expired or was revoked. Please authorize with Twitch again.',
  otherApp:
    'This Twitch authorization was not issued to this application. Please authorize with Twitch again.',
} as const;

export class TwitchPlatform extends PolledPlatform {
  readonly platform = 'twitch' as const;
  /** The client-credentials token, one request at a time, kept until a minute before it expires. */
  private readonly appToken = new CachedToken(() => this.requestAppToken());
  /** Broadcasters with a stream.offline subscription requested (EventSub). */
  private readonly subscribed = new Set<string>();
  /** Message ids seen in the last 10 minutes (Twitch may deliver a notification twice). */

  constructor(
    private readonly options: TwitchOptions,
    private readonly logger: Logger,
    private readonly inbox = new WebhookInbox(logger),
  ) {
    super(LABEL, options, logger);
  }

  get configured(): boolean {
    return Boolean(this.options.clientId);
  }

  /**
   * GET /twitch/auth: where the popup goes (implicit grant; Twitch returns to /callback#access_token=…&state=…).
   * `state` is this attempt's, stored by the server (platforms/oauth-state.ts).
   */
  authorizeUrl(state: string): string {
    if (!this.options.clientId) throw new PlatformError('unavailable', TWITCH_MESSAGES.notConfigured);
    const url = new URL(`${this.options.authBaseUrl}/oauth2/authorize`);
    url.searchParams.set('client_id', this.options.clientId);
    url.searchParams.set('redirect_uri', this.options.redirectUri);
    url.searchParams.set('response_type', 'token');
    url.searchParams.set('scope', '');
    url.searchParams.set('force_verify', 'true');
    url.searchParams.set('state', state);
    return url.toString();
  }

  /** Who the user token belongs to (verification). Expired or revoked: 'unauthorized'. */
  async validateToken(accessToken: string): Promise<TwitchTokenInfo> {
    const url = `${this.options.authBaseUrl}/oauth2/validate`;
    const res = await platformFetch(
      LABEL,
      url,
      { headers: { Authorization: `OAuth ${accessToken}` }, timeoutMs: this.options.httpTimeoutMs },
      this.logger,
    );
    if (res.status === 401 || res.status === 400) {
      this.logger.info({ status: res.status }, 'Twitch refused a user access token');
      throw new PlatformError('unauthorized', TWITCH_MESSAGES.tokenInvalid);
    }
    const parsed = validateSchema.safeParse(expectJson(LABEL, res, this.logger, url));
    if (!parsed.success) throw malformed(LABEL, this.logger, url, parsed.error.issues[0]);
    if (this.options.clientId && parsed.data.client_id !== this.options.clientId) {
      throw new PlatformError('unauthorized', TWITCH_MESSAGES.otherApp);
    }
    return parsed.data;
  }

  async liveStatus(account: PlatformAccountRef): Promise<LiveStatus> {
    const statuses = await this.statuses([account]);
    return statuses.get(keyOf(account)) ?? { live: false, viewers: 0 };
  }

  override watch(account: PlatformAccountRef, onChange: (status: LiveStatus) => void): () => void {
    if (this.options.eventSub && account.externalId) {
      // subscribeOffline() logs its own failures; this catch is for what it could not foresee.
      this.subscribeOffline(account.externalId).catch((err: unknown) =>
        this.logger.warn({ err }, 'EventSub subscription failed; polling continues'),
      );
    }
    return super.watch(account, onChange);
  }

  /** Asks Twitch to push stream.offline for the broadcaster (once per process; 409 means it exists). */
  private async subscribeOffline(broadcasterId: string): Promise<void> {
    const eventSub = this.options.eventSub;
    if (!eventSub || this.subscribed.has(broadcasterId)) return;
    this.subscribed.add(broadcasterId);
    const url = `${this.options.apiBaseUrl}/helix/eventsub/subscriptions`;
    try {
      const token = await this.appToken.get();
      const res = await platformFetch(
        LABEL,
        url,
        {
          method: 'POST',
          headers: {
            'Client-Id': this.options.clientId ?? '',
            Authorization: `Bearer ${token}`,
            'Content-Type': 'application/json',
          },
          body: JSON.stringify({
            type: 'stream.offline',
            version: '1',
            condition: { broadcaster_user_id: broadcasterId },
            transport: { method: 'webhook', callback: eventSub.callbackUrl, secret: eventSub.secret },
          }),
          timeoutMs: this.options.httpTimeoutMs,
        },
        this.logger,
      );
      if (res.status !== 202 && res.status !== 409) {
        this.subscribed.delete(broadcasterId);
        this.logger.warn(
          { status: res.status, body: res.text.slice(0, 200) },
          'EventSub subscription refused',
        );
      }
    } catch (err) {
      this.subscribed.delete(broadcasterId);
      this.logger.warn({ err, broadcasterId }, 'EventSub subscription failed; polling continues');
    }
  }

  /**
   * POST /twitch/eventsub: checks Twitch's HMAC signature over id + timestamp + raw body, refuses old or
   * repeated messages, answers the verification challenge, and reports stream.offline at once.
   */
  async handleEventSub(
    headers: Record<string, string | string[] | undefined>,
    rawBody: Buffer,
  ): Promise<WebhookAnswer> {
    const eventSub = this.options.eventSub;
    if (!eventSub) return { status: 404 };
    const message = webhookHeaders(headers, {
      id: 'twitch-eventsub-message-id',
      timestamp: 'twitch-eventsub-message-timestamp',
      signature: 'twitch-eventsub-message-signature',
      type: 'twitch-eventsub-message-type',
    });
    if (!message) return { status: 400 };
    const { id, timestamp, signature, type } = message;
    const expected = `sha256=${createHmac('sha256', eventSub.secret).update(id).update(timestamp).update(rawBody).digest('hex')}`;
    const given = Buffer.from(signature);
    if (given.length !== expected.length || !timingSafeEqual(given, Buffer.from(expected))) {
      this.logger.warn({ id }, 'EventSub message with a bad signature refused');
      return { status: 403 };
    }
    const admitted = await this.inbox.admit('twitch', id, timestamp, EVENTSUB_MAX_AGE_MS);
    if (admitted === 'bad_timestamp') return { status: 400 };
    // Acknowledged and ignored: a replay changes nothing, and a refusal would count as a failed delivery.
    if (admitted !== 'new') return { status: 204 };
    let parsed: z.infer<typeof eventSubSchema>;
    try {
      parsed = eventSubSchema.parse(JSON.parse(rawBody.toString('utf8')));
    } catch {
      return { status: 400 };
    }
    if (type === 'webhook_callback_verification') return { status: 200, text: parsed.challenge ?? '' };
    if (type === 'revocation') {
      this.logger.warn({ subscription: parsed.subscription }, 'Twitch revoked an EventSub subscription');
      // A revocation names its channel in the subscription's condition (it carries no event).
      const broadcaster =
        parsed.subscription.condition?.broadcaster_user_id ?? parsed.event?.broadcaster_user_id;
      if (broadcaster) {
        this.subscribed.delete(broadcaster);
        // Dropped for failed deliveries while a session still watches: made again (the others are final).
        if (
          parsed.subscription.status === 'notification_failures_exceeded' &&
          this.poller.watching(`id:${broadcaster}`)
        ) {
          this.subscribeOffline(broadcaster).catch((err: unknown) =>
            this.logger.warn({ err }, 'EventSub subscription failed; polling continues'),
          );
        }
      }
      return { status: 204 };
    }
    if (type === 'notification' && parsed.subscription.type === 'stream.offline' && parsed.event) {
      await this.announceEnded([`id:${parsed.event.broadcaster_user_id}`]);
    }
    return { status: 204 };
  }

  /** Helix GET /streams for the accounts (by user id when verified with one, else by login). */
  protected async statuses(accounts: PlatformAccountRef[]): Promise<Map<string, LiveStatus>> {
    const result = new Map<string, LiveStatus>();
    for (let i = 0; i < accounts.length; i += HELIX_PAGE) {
      const page = accounts.slice(i, i + HELIX_PAGE);
      const url = new URL(`${this.options.apiBaseUrl}/helix/streams`);
      url.searchParams.set('first', String(HELIX_PAGE));
      for (const a of page) {
        if (a.externalId) url.searchParams.append('user_id', a.externalId);
        else url.searchParams.append('user_login', normaliseUsername(a.username));
      }
      const body = await this.helix(url.toString());
      const parsed = streamsSchema.safeParse(body);
      if (!parsed.success) throw malformed(LABEL, this.logger, url.toString(), parsed.error.issues[0]);
      for (const a of page) result.set(keyOf(a), { live: false, viewers: 0 });
      for (const stream of parsed.data.data) {
        if (stream.type !== 'live') continue;
        const status = { live: true, viewers: stream.viewer_count };
        result.set(`id:${stream.user_id}`, status);
        result.set(`login:${stream.user_login.toLowerCase()}`, status);
      }
    }
    return result;
  }

  /** A Helix GET with the app token; a 401 (token expired or revoked) gets one new token and one retry. */
  private async helix(url: string, retried = false): Promise<unknown> {
    const token = await this.appToken.get();
    const res = await platformFetch(
      LABEL,
      url,
      {
        headers: { 'Client-Id': this.options.clientId ?? '', Authorization: `Bearer ${token}` },
        timeoutMs: this.options.httpTimeoutMs,
      },
      this.logger,
    );
    if (res.status === 401) {
      this.appToken.clear();
      if (!retried) return this.helix(url, true);
      this.logger.error('Twitch refused a fresh app access token');
      throw new PlatformError('unavailable', TWITCH_MESSAGES.unavailable);
    }
    if (res.status === 400) {
      this.logger.warn(
        { status: res.status, body: res.text.slice(0, 200) },
        'Twitch refused a streams request',
      );
      throw new PlatformError('unavailable', TWITCH_MESSAGES.unavailable);
    }
    return expectJson(LABEL, res, this.logger, url);
  }

  /** Twitch's client-credentials grant (its refusals are Twitch's own, not an OAuth code grant's). */
  private async requestAppToken(): Promise<TokenAnswer> {
    const { clientId, clientSecret } = this.options;
    if (!clientId || !clientSecret) {
      this.logger.error('TWITCH_CLIENT_ID and TWITCH_CLIENT_SECRET are needed for Twitch live detection');
      throw new PlatformError('unavailable', TWITCH_MESSAGES.notConfigured);
    }
    const url = `${this.options.authBaseUrl}/oauth2/token`;
    const res = await platformFetch(
      LABEL,
      url,
      {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          client_id: clientId,
          client_secret: clientSecret,
          grant_type: 'client_credentials',
        }).toString(),
        timeoutMs: this.options.httpTimeoutMs,
      },
      this.logger,
    );
    if (res.status === 400 || res.status === 401 || res.status === 403) {
      this.logger.error({ status: res.status }, 'Twitch refused the app credentials (TWITCH_CLIENT_SECRET?)');
      throw new PlatformError('unavailable', TWITCH_MESSAGES.unavailable);
    }
    const parsed = appTokenSchema.safeParse(expectJson(LABEL, res, this.logger, url));
    if (!parsed.success) throw malformed(LABEL, this.logger, url, parsed.error.issues[0]);
    return parsed.data;
  }
}
