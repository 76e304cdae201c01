import { API_BASE_PATH, apiErrorSchema } from '@strm/shared';
import type { z } from 'zod';

/** The session token (spec §3: kept in local storage as authToken). */
export const AUTH_TOKEN_KEY = 'authToken';

export const authToken = {
  get: (): string | null => localStorage.getItem(AUTH_TOKEN_KEY),
  set: (token: string) => localStorage.setItem(AUTH_TOKEN_KEY, token),
  clear: () => localStorage.removeItem(AUTH_TOKEN_KEY),
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

/** The one API client: JSON, bearer authToken when present, answers validated by the shared schema. */
export async function apiRequest<T extends z.ZodType>(
  path: string,
  schema: T,
  init: { method?: string; body?: unknown } = {},
): Promise<z.infer<T>> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  const token = authToken.get();
  if (token) headers.Authorization = `Bearer ${token}`;
  if (init.body !== undefined) headers['Content-Type'] = 'application/json';
  const res = await fetch(`${API_BASE_PATH}${path}`, {
    method: init.method ?? 'GET',
    headers,
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  const json: unknown = await res.json().catch(() => undefined);
  if (!res.ok) {
    const error = apiErrorSchema.safeParse(json);
    throw new ApiRequestError(
      res.status,
      error.success ? error.data.error : 'http_error',
      error.success ? error.data.message : `Request failed (${res.status})`,
    );
  }
  return schema.parse(json);
}
