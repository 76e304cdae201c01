import { API_BASE_PATH } from '@strm/shared';
import type { z } from 'zod';

/** The session token (docs/product.md#session-token: kept in local storage as authToken). */
export const AUTH_TOKEN_KEY = 'authToken';

const tokenListeners = new Set<(token: string) => void>();

export const authToken = {
  get: (): string | null => localStorage.getItem(AUTH_TOKEN_KEY),
  /** Keeps a new token: its listeners hear it at once (before any screen renders with it). */
  set: (token: string) => {
    localStorage.setItem(AUTH_TOKEN_KEY, token);
    for (const listener of tokenListeners) listener(token);
  },
  clear: () => localStorage.removeItem(AUTH_TOKEN_KEY),
  /** Calls `listener` with each token kept from now on; the function returned stops it. */
  listen: (listener: (token: string) => void): (() => void) => {
    tokenListeners.add(listener);
    return () => tokenListeners.delete(listener);
  },
};

export class ApiRequestError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** The server answered 2xx with a body its schema does not accept (the zod error is the cause). */
export class InvalidAnswerError extends Error {
  constructor(path: string, cause: unknown) {
    super(`The answer of ${path} is not in the expected form`, { cause });
    this.name = 'InvalidAnswerError';
  }
}

/**
 * A response schema, or how to load it: the landing page's requests name theirs as
 * `() => import('@strm/shared/schemas/<area>').then((m) => m.someSchema)`, so that zod and the schemas are a chunk of their
 * own, downloaded beside the request and evaluated after the page has painted, instead of part of the entry.
 */
export type AnswerSchema<T extends z.ZodType> = T | (() => Promise<T>);

const loadSchema = <T extends z.ZodType>(schema: AnswerSchema<T>): Promise<T> =>
  typeof schema === 'function' ? schema() : Promise.resolve(schema);

/** The one API client: JSON, bearer authToken when present, answers validated by the shared schema. */
export async function apiRequest<T extends z.ZodType>(
  path: string,
  schema: AnswerSchema<T>,
  init: { method?: string; body?: unknown } = {},
): Promise<z.infer<T>> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  const token = authToken.get();
  if (token) headers.Authorization = `Bearer ${token}`;
  if (init.body !== undefined) headers['Content-Type'] = 'application/json';
  // The schema (when loaded on demand) downloads while the request is under way.
  const parser = loadSchema(schema);
  parser.catch(() => {});
  const res = await fetch(`${API_BASE_PATH}${path}`, {
    method: init.method ?? 'GET',
    headers,
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  const json: unknown = await res.json().catch(() => undefined);
  if (!res.ok) {
    // Errors are rare: their schema is loaded when one arrives.
    const error = await import('@strm/shared/schemas/common').then(
      (m) => m.apiErrorSchema.safeParse(json),
      () => undefined,
    );
    throw new ApiRequestError(
      res.status,
      error?.success ? error.data.error : 'http_error',
      error?.success ? error.data.message : `Request failed (${res.status})`,
    );
  }
  const parsed = (await parser).safeParse(json);
  if (!parsed.success) throw new InvalidAnswerError(path, parsed.error);
  return parsed.data;
}
