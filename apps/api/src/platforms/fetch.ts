// The platforms' HTTP: fetch with a deadline, and every way an external call fails mapped to one error
// type whose message a user may see. The adapters and the verification service never let a raw network
// error, a 429 or a malformed body escape as anything else. Every call is counted by platform and outcome
// (docs/operations.md#strmplatformfailing).
import type { Logger } from '../logger.ts';
import { platformRequests } from '../observability/metrics.ts';

export type PlatformFailure = 'unauthorized' | 'rate-limited' | 'not-found' | 'unavailable' | 'malformed';

export class PlatformError extends Error {
  constructor(
    readonly kind: PlatformFailure,
    message: string,
    /** For 'rate-limited': when the platform said it may be asked again. */
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
  }
}

export interface HttpResponse {
  status: number;
  headers: Headers;
  text: string;
}

/** Seconds until a 429 may be retried: Retry-After (seconds or an HTTP date), else Twitch's Ratelimit-Reset. */
export function retryAfterSeconds(headers: Headers, nowMs = Date.now()): number {
  const retryAfter = headers.get('retry-after');
  if (retryAfter) {
    if (/^\d+$/.test(retryAfter.trim())) return Math.max(1, Number(retryAfter));
    const at = Date.parse(retryAfter);
    if (!Number.isNaN(at)) return Math.max(1, Math.ceil((at - nowMs) / 1000));
  }
  const reset = headers.get('ratelimit-reset');
  if (reset && /^\d+$/.test(reset.trim())) return Math.max(1, Number(reset) - Math.floor(nowMs / 1000));
  return 60;
}

function outcomeOf(status: number): string {
  if (status === 429) return 'rate_limited';
  if (status >= 200 && status < 300) return 'ok';
  if (status >= 400 && status < 500) return 'refused';
  return 'error';
}

/** One HTTP call with a deadline; network failures and timeouts become 'unavailable'. */
export async function platformFetch(
  label: string,
  url: string,
  init: RequestInit & { timeoutMs: number },
  logger: Logger,
): Promise<HttpResponse> {
  const { timeoutMs, ...rest } = init;
  try {
    const res = await fetch(url, { ...rest, redirect: 'manual', signal: AbortSignal.timeout(timeoutMs) });
    const text = await res.text();
    platformRequests.inc({ platform: label.toLowerCase(), outcome: outcomeOf(res.status) });
    return { status: res.status, headers: res.headers, text };
  } catch (err) {
    platformRequests.inc({ platform: label.toLowerCase(), outcome: 'unreachable' });
    const timedOut = err instanceof Error && (err.name === 'TimeoutError' || err.name === 'AbortError');
    logger.warn({ err, url: redact(url) }, `${label} ${timedOut ? 'timed out' : 'unreachable'}`);
    throw new PlatformError('unavailable', `${label} could not be reached; please try again`);
  }
}

/** Maps the statuses every platform call shares; returns the parsed JSON body of a 2xx answer. */
export function expectJson(label: string, res: HttpResponse, logger: Logger, url: string): unknown {
  if (res.status === 429) {
    const seconds = retryAfterSeconds(res.headers);
    logger.warn({ url: redact(url), retryAfterSeconds: seconds }, `${label} rate limited`);
    throw new PlatformError(
      'rate-limited',
      `${label} is limiting requests; please try again in ${seconds} seconds`,
      seconds,
    );
  }
  if (res.status >= 500 || res.status < 200 || (res.status >= 300 && res.status < 400)) {
    logger.warn({ url: redact(url), status: res.status }, `${label} answered ${res.status}`);
    throw new PlatformError('unavailable', `${label} could not be reached; please try again`);
  }
  try {
    return JSON.parse(res.text) as unknown;
  } catch {
    logger.warn({ url: redact(url), status: res.status }, `${label} answered with malformed JSON`);
    throw new PlatformError('malformed', `${label} gave an unexpected answer; please try again`);
  }
}

export function malformed(label: string, logger: Logger, url: string, detail: unknown): PlatformError {
  logger.warn({ url: redact(url), detail }, `${label} answered in an unexpected shape`);
  return new PlatformError('malformed', `${label} gave an unexpected answer; please try again`);
}

/** Secrets never reach the logs. */
function redact(url: string): string {
  return url.replace(/(client_secret|code|access_token)=[^&]*/g, '$1=…');
}
