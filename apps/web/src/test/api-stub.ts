import type { User } from '@gpu/shared/auth';
import { vi } from 'vitest';
import { configureApiClient } from '../lib/api-client';
import { clearUserSession, setUserSession } from '../lib/session';

/** What the fake API answers to one request: an HTTP status (200 when left out) and a JSON body. */
export interface ApiAnswer {
  status?: number;
  body: unknown;
}

/** The fake API's routing: the answer for a request, or undefined for a path it does not serve. */
export type ApiRoutes = (url: URL, init: RequestInit | undefined) => ApiAnswer | undefined;

/** A 200 answer in the API's success envelope. */
export const ok = (data: unknown): ApiAnswer => ({
  status: 200,
  body: { success: true, code: '200', message: '成功', data },
});

/** A failure answer in the API's envelope: `status` as both the HTTP status and the code. */
export const fail = (message: string, status: number): ApiAnswer => ({
  status,
  body: { success: false, code: String(status), message, data: null },
});

/**
 * Stubs fetch with a fake API that answers from `routes` (a 404 envelope for anything unrouted)
 * and points the API client at no page for a 401; with `user`, that user is signed in. Undo it
 * with restoreApi() in afterEach. Returns the fetch mock.
 */
export function stubApi(routes: ApiRoutes, options: { user?: User } = {}) {
  configureApiClient({ navigate: () => {} });
  if (options.user) setUserSession('tok', options.user);
  const fetch = vi.fn(async (input: string, init?: RequestInit) => {
    const answer = routes(new URL(input, 'http://localhost'), init) ?? fail('接口不存在', 404);
    return new Response(JSON.stringify(answer.body), { status: answer.status ?? 200 });
  });
  vi.stubGlobal('fetch', fetch);
  return fetch;
}

/** Ends what stubApi began: the session is cleared and fetch is the real one again. */
export function restoreApi() {
  clearUserSession();
  vi.unstubAllGlobals();
}
