// What the fake YouTube (Google) and the fake Kick share: an OAuth authorization server for the code grant
// with PKCE, as RFC 6749/7636 and both platforms document it. The consent page is a committed document of the
// fake's origin (the popup really leaves the app and comes back to /callback?code=…&state=…); the token
// endpoint checks the client, the code (single use, bound to its redirect_uri) and the S256 challenge.
import { createHash, randomBytes } from 'node:crypto';
import type { Answer } from './fake-http.ts';

export interface IssuedToken {
  subject: string;
  expiresAtMs: number;
  revoked: boolean;
}

interface PendingCode {
  subject: string;
  redirectUri: string;
  challenge: string;
  scope: string;
  offline: boolean;
  used: boolean;
}

export class FakeOAuthServer {
  readonly accessTokens = new Map<string, IssuedToken>();
  readonly refreshTokens = new Map<string, IssuedToken>();
  private readonly codes = new Map<string, PendingCode>();
  /** Who "signs in" in the popup (a subject of the platform), or nobody. */
  signedIn: string | null = null;
  /** Access tokens' lifetime (seconds). */
  accessTokenSeconds = 3600;

  constructor(
    readonly clientId: string,
    readonly clientSecret: string,
    /** The path the consent form posts back to (the authorize path). */
    private readonly authorizePath: string,
    private readonly title: string,
    /** Whether a refresh token is only given for access_type=offline (Google) or always (Kick). */
    private readonly refreshOnlyOffline: boolean,
  ) {}

  /** GET authorize: the consent page when someone is signed in, else straight back with access_denied. */
  authorizePage(params: URLSearchParams): Answer {
    const invalid = this.invalidRequest(params);
    if (invalid) return invalid;
    if (!this.signedIn) return this.decide(params);
    const html = (v: string) => v.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
    const hidden = [...params]
      .map(([k, v]) => `<input type="hidden" name="${html(k)}" value="${html(v)}">`)
      .join('');
    return {
      status: 200,
      raw: `<!doctype html><html lang="en"><head><title>Sign in - ${html(this.title)}</title></head><body>
<main><h1>${html(this.title)} wants to access your account</h1><p>Signed in as ${html(this.signedIn)}</p>
<form method="post" action="${html(this.authorizePath)}">${hidden}
<button type="submit" name="consent" value="allow">Allow</button>
<button type="submit" name="consent" value="cancel">Cancel</button></form></main></body></html>`,
    };
  }

  /** POST authorize (the consent form): back to redirect_uri with a code, or access_denied. */
  decide(params: URLSearchParams): Answer {
    const invalid = this.invalidRequest(params);
    if (invalid) return invalid;
    const target = new URL(params.get('redirect_uri') ?? '');
    const state = params.get('state') ?? '';
    if (!this.signedIn || params.get('consent') === 'cancel') {
      target.searchParams.set('error', 'access_denied');
      target.searchParams.set('state', state);
    } else {
      const code = this.issueCode(this.signedIn, {
        redirectUri: params.get('redirect_uri') ?? '',
        challenge: params.get('code_challenge') ?? '',
        scope: params.get('scope') ?? '',
        offline: params.get('access_type') === 'offline',
      });
      target.searchParams.set('code', code);
      target.searchParams.set('state', state);
      target.searchParams.set('scope', params.get('scope') ?? '');
    }
    return { status: 302, headers: { location: target.toString() } };
  }

  /** A code as the consent would give (API tests skip the popup): exchange it with `verifier`. */
  issueCode(
    subject: string,
    opts: { redirectUri: string; challenge?: string; verifier?: string; scope?: string; offline?: boolean },
  ): string {
    const code = randomBytes(16).toString('base64url');
    this.codes.set(code, {
      subject,
      redirectUri: opts.redirectUri,
      challenge:
        opts.challenge ??
        createHash('sha256')
          .update(opts.verifier ?? '')
          .digest('base64url'),
      scope: opts.scope ?? '',
      offline: opts.offline ?? true,
      used: false,
    });
    return code;
  }

  private invalidRequest(params: URLSearchParams): Answer | undefined {
    if (params.get('client_id') !== this.clientId || !params.get('redirect_uri')) {
      return {
        status: 400,
        body: { error: 'invalid_client', error_description: 'The OAuth client was not found.' },
      };
    }
    if (params.get('response_type') !== 'code') {
      return { status: 400, body: { error: 'unsupported_response_type' } };
    }
    if (params.get('code_challenge_method') !== 'S256' || !params.get('code_challenge')) {
      return { status: 400, body: { error: 'invalid_request', error_description: 'PKCE S256 is required' } };
    }
    return undefined;
  }

  /** POST token: authorization_code (PKCE), refresh_token and client_credentials grants. */
  token(form: URLSearchParams): Answer {
    if (form.get('client_id') !== this.clientId || form.get('client_secret') !== this.clientSecret) {
      return { status: 401, body: { error: 'invalid_client', error_description: 'Unauthorized' } };
    }
    const grant = form.get('grant_type');
    if (grant === 'authorization_code') {
      const pending = this.codes.get(form.get('code') ?? '');
      const verifier = form.get('code_verifier') ?? '';
      if (
        !pending ||
        pending.used ||
        pending.redirectUri !== form.get('redirect_uri') ||
        createHash('sha256').update(verifier).digest('base64url') !== pending.challenge
      ) {
        if (pending) pending.used = true;
        return { status: 400, body: { error: 'invalid_grant', error_description: 'Bad Request' } };
      }
      pending.used = true;
      const refresh = !this.refreshOnlyOffline || pending.offline;
      return { status: 200, body: this.tokens(pending.subject, pending.scope, refresh) };
    }
    if (grant === 'refresh_token') {
      const held = this.refreshTokens.get(form.get('refresh_token') ?? '');
      if (!held || held.revoked) {
        return {
          status: 400,
          body: { error: 'invalid_grant', error_description: 'Token has been expired or revoked.' },
        };
      }
      return { status: 200, body: this.tokens(held.subject, '', false) };
    }
    if (grant === 'client_credentials') {
      return { status: 200, body: this.tokens('app', '', false) };
    }
    return { status: 400, body: { error: 'unsupported_grant_type' } };
  }

  private tokens(subject: string, scope: string, withRefresh: boolean) {
    const access = randomBytes(20).toString('base64url');
    this.accessTokens.set(access, {
      subject,
      expiresAtMs: Date.now() + this.accessTokenSeconds * 1000,
      revoked: false,
    });
    let refresh: string | undefined;
    if (withRefresh) {
      refresh = randomBytes(24).toString('base64url');
      this.refreshTokens.set(refresh, { subject, expiresAtMs: Number.POSITIVE_INFINITY, revoked: false });
    }
    return {
      access_token: access,
      token_type: 'Bearer',
      expires_in: this.accessTokenSeconds,
      ...(refresh ? { refresh_token: refresh } : {}),
      ...(scope ? { scope } : {}),
    };
  }

  /** The subject of a valid bearer token in the Authorization header, or null. */
  bearer(header: string | undefined): string | null {
    const token = /^Bearer (\S+)$/i.exec(header ?? '')?.[1];
    const t = token ? this.accessTokens.get(token) : undefined;
    return t && !t.revoked && t.expiresAtMs > Date.now() ? t.subject : null;
  }

  /** Expires every access token now (the client must refresh). */
  expireAccessTokens(): void {
    for (const t of this.accessTokens.values()) t.expiresAtMs = 0;
  }

  /** Revokes every refresh token of a subject (the user removed the app's access). */
  revokeRefreshTokens(subject: string): void {
    for (const t of this.refreshTokens.values()) if (t.subject === subject) t.revoked = true;
  }
}
