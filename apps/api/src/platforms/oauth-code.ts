// What YouTube's and Kick's adapters share: the authorization-code grant with PKCE (RFC 7636) and
// its token endpoint (code, refresh_token and client_credentials grants, form-encoded as both document); and
// what all three token holders share (Twitch's app token too): a token kept until shortly before it expires,
// fetched once however many ask at once. Failures are PlatformErrors.
import { z } from 'zod';
import type { Logger } from '../logger.ts';
import { expectJson, malformed, PlatformError, platformFetch } from './fetch.ts';

/** The token endpoint's answer (Kick documents `expires_in` as a string; Google sends a number). */
const tokenSchema = z.object({
  access_token: z.string().min(1),
  refresh_token: z.string().min(1).optional(),
  expires_in: z.coerce.number().int().positive(),
  scope: z.string().optional(),
});
export type TokenAnswer = z.infer<typeof tokenSchema>;

export interface TokenEndpoint {
  label: string;
  url: string;
  timeoutMs: number;
  logger: Logger;
  /** Told when the endpoint refuses the grant (a used code, a revoked refresh token). */
  refusedMessage: string;
}

/**
 * POSTs a grant to the token endpoint. A 400/401 (invalid_grant, invalid_client) is 'unauthorized' with the
 * refusal message; the rest as every platform call (fetch.ts).
 */
/** The token endpoint refused (400/401), with OAuth's `error` (invalid_grant: the grant is dead). */
export class TokenRefused extends PlatformError {
  constructor(
    message: string,
    readonly oauthError: string | undefined,
  ) {
    super('unauthorized', message);
  }
}

export async function requestToken(
  endpoint: TokenEndpoint,
  form: Record<string, string>,
): Promise<TokenAnswer> {
  const res = await platformFetch(
    endpoint.label,
    endpoint.url,
    {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'application/json' },
      body: new URLSearchParams(form).toString(),
      timeoutMs: endpoint.timeoutMs,
    },
    endpoint.logger,
  );
  if (res.status === 400 || res.status === 401) {
    endpoint.logger.info(
      { status: res.status, grant: form.grant_type, body: res.text.slice(0, 200) },
      `${endpoint.label} refused a token request`,
    );
    let oauthError: string | undefined;
    try {
      oauthError = String((JSON.parse(res.text) as { error?: unknown }).error ?? '') || undefined;
    } catch {
      // not an OAuth error body
    }
    throw new TokenRefused(endpoint.refusedMessage, oauthError);
  }
  const parsed = tokenSchema.safeParse(expectJson(endpoint.label, res, endpoint.logger, endpoint.url));
  if (!parsed.success) throw malformed(endpoint.label, endpoint.logger, endpoint.url, parsed.error.issues[0]);
  return parsed.data;
}

/** The authorization-code grant with its PKCE verifier (RFC 7636), as both YouTube and Kick take it. */
export function exchangeCode(
  endpoint: TokenEndpoint,
  client: { clientId?: string | undefined; clientSecret?: string | undefined; redirectUri: string },
  code: string,
  codeVerifier: string,
): Promise<TokenAnswer> {
  return requestToken(endpoint, {
    grant_type: 'authorization_code',
    code,
    code_verifier: codeVerifier,
    client_id: client.clientId ?? '',
    client_secret: client.clientSecret ?? '',
    redirect_uri: client.redirectUri,
  });
}

/** A token kept until a minute before it expires; `clear` after the platform refused it (401). */
export class CachedToken {
  private value: { token: string; expiresAtMs: number } | null = null;
  private pending: Promise<string> | null = null;

  constructor(private readonly fetchToken: () => Promise<TokenAnswer>) {}

  async get(): Promise<string> {
    if (this.value && this.value.expiresAtMs > Date.now()) return this.value.token;
    this.pending ??= this.fetchToken()
      .then((answer) => {
        this.value = {
          token: answer.access_token,
          expiresAtMs: Date.now() + Math.max(0, answer.expires_in - 60) * 1000,
        };
        return answer.access_token;
      })
      .finally(() => {
        this.pending = null;
      });
    return this.pending;
  }

  clear(): void {
    this.value = null;
  }
}

/** The authorize URL of a code grant with PKCE (S256). */
export function codeGrantUrl(
  authorizeUrl: string,
  params: { clientId: string; redirectUri: string; scope: string; state: string; codeChallenge: string },
  extra: Record<string, string> = {},
): string {
  const url = new URL(authorizeUrl);
  url.searchParams.set('response_type', 'code');
  url.searchParams.set('client_id', params.clientId);
  url.searchParams.set('redirect_uri', params.redirectUri);
  url.searchParams.set('scope', params.scope);
  url.searchParams.set('state', params.state);
  url.searchParams.set('code_challenge', params.codeChallenge);
  url.searchParams.set('code_challenge_method', 'S256');
  for (const [k, v] of Object.entries(extra)) url.searchParams.set(k, v);
  return url.toString();
}
