// The API as the web app's unit tests fake it: `fetch` answers by 'METHOD /path' (the path below /api/v1,
// without its query) and records every call; a route the test did not give answers 404 as the API does.
import { cleanup } from '@testing-library/react';
import { afterEach, beforeEach, vi } from 'vitest';

export interface FakeCall {
  method: string;
  /** Below /api/v1, without the query: '/streamer'. */
  path: string;
  /** As fetched: '/api/v1/streamer?wallet=…'. */
  url: string;
  /** The JSON body sent, parsed. */
  body: unknown;
}

/** A route's answer: the JSON body, with its status (200 unless given). */
export interface FakeAnswer {
  status?: number;
  body: unknown;
}
/** Answers at once, or when its promise settles (a request the test holds in flight). */
export type FakeRoute = (call: FakeCall) => FakeAnswer | Promise<FakeAnswer>;
export type FakeRoutes = Record<string, FakeRoute>;

/** Stubs `fetch` (undo with `vi.unstubAllGlobals()`); `routes` may be a function read at each call. */
export function fakeApi(
  routes: FakeRoutes | (() => FakeRoutes),
  calls: FakeCall[] = [],
): { calls: FakeCall[] } {
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string | URL, init?: RequestInit) => {
      const url = String(input);
      const method = init?.method ?? 'GET';
      const path = url.replace(/^.*\/api\/v1/, '').split('?')[0]!;
      const call = { method, path, url, body: init?.body ? JSON.parse(String(init.body)) : undefined };
      calls.push(call);
      const route = (typeof routes === 'function' ? routes() : routes)[`${method} ${path}`];
      if (!route) return Response.json({ error: 'not_found', message: 'no route' }, { status: 404 });
      const { status = 200, body } = await route(call);
      return Response.json(body, { status });
    }),
  );
  return { calls };
}

/**
 * For every test of the file: a signed-in wallet (a token in localStorage) and the API faked with the
 * `routes` read at each call; afterwards the render, the stubs and mocks and localStorage undone. Returns
 * the calls of the running test (emptied before each).
 */
export function signedInWithFakeApi(routes: () => FakeRoutes): FakeCall[] {
  const calls: FakeCall[] = [];
  beforeEach(() => {
    localStorage.setItem('authToken', 'token');
    calls.length = 0;
    fakeApi(routes, calls);
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
    localStorage.clear();
  });
  return calls;
}
