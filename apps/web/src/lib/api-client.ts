import { API_BASE, API_TIMEOUT_MS, TENANT_HEADER } from '@gpu/shared/constants';
import type { Envelope } from '@gpu/shared/envelope';
import { t } from '../locales/zh-CN';
import { clearAdminSession, clearUserSession, getSession } from './session';

/** A failed call: the envelope's code and message, or a local code (TIMEOUT, NETWORK, ...). */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  constructor(
    readonly code: string,
    message: string,
    /** HTTP status; 0 when no answer arrived. */
    readonly status: number,
  ) {
    super(message);
  }
}

export type QueryValue = string | number | boolean | null | undefined;

export interface RequestOptions {
  query?: Record<string, QueryValue>;
  body?: unknown;
  signal?: AbortSignal;
  timeoutMs?: number;
  /** A 401 answers an ApiError only: no session is cleared and the browser stays (start-up checks). */
  quietUnauthorized?: boolean;
  /**
   * Sent as `Idempotency-Key`: the server runs one request per key and answers replays with the
   * first answer, so this call is retried on its own when no answer arrived (see `idempotentAction`).
   */
  idempotencyKey?: string;
}

export const IDEMPOTENCY_HEADER = 'Idempotency-Key';
/** Local code of a call whose first request is still running on the server after our retries. */
export const IN_FLIGHT = 'IN_FLIGHT';
/** Automatic retries of a keyed call, and the pause before each. */
const IDEMPOTENT_RETRY_DELAYS_MS = [500, 1500];

type Navigate = (to: string) => void;
let navigate: Navigate = (to) => window.location.assign(to);

/** The app hands in the router's navigate so a 401 does not reload the page. */
export function configureApiClient(options: { navigate: Navigate }) {
  navigate = options.navigate;
}

/** SPEC.md §6: calls to paths beginning /admin use the admin token. */
export const isAdminPath = (path: string) => /^\/admin(\/|\?|$)/.test(path);

const AUTH_PAGES = ['/login', '/register', '/admin/login'];

/**
 * SPEC.md §4, the 401 rule, as a pure decision: where the browser goes after a 401 on `path`
 * while it shows `location`; null when it stays.
 */
export function unauthorizedRedirect(path: string, location: { pathname: string; search: string }) {
  if (AUTH_PAGES.includes(location.pathname)) return null;
  const here = encodeURIComponent(location.pathname + location.search);
  return isAdminPath(path) ? `/admin/login?redirect=${here}` : `/login?redirect=${here}`;
}

function buildUrl(path: string, query?: Record<string, QueryValue>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value !== undefined && value !== null) params.set(key, String(value));
  }
  const qs = params.toString();
  return `${API_BASE}${path}${qs ? (path.includes('?') ? '&' : '?') + qs : ''}`;
}

function isEnvelope(body: unknown): body is Envelope<unknown> {
  return typeof body === 'object' && body !== null && 'success' in body && 'code' in body;
}

function onUnauthorized(path: string) {
  clearUserSession();
  if (isAdminPath(path)) clearAdminSession();
  const to = unauthorizedRedirect(path, window.location);
  if (to) navigate(to);
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Sends one call and answers the whole envelope; throws ApiError unless it succeeded. A call
 * with an idempotency key is sent again, with the same key, when the connection failed or the
 * server says the first request is still running (409 with Retry-After): the server answers a
 * repeat with the first answer, so it cannot buy twice.
 */
export async function requestEnvelope<T>(
  method: string,
  path: string,
  options: RequestOptions = {},
): Promise<Envelope<T>> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await sendOnce<T>(method, path, options);
    } catch (err) {
      const delay = IDEMPOTENT_RETRY_DELAYS_MS[attempt];
      const retryable =
        err instanceof ApiError &&
        (err.code === 'NETWORK' || err.code === IN_FLIGHT) &&
        !options.signal?.aborted;
      if (!options.idempotencyKey || !retryable || delay === undefined) throw err;
      await sleep(delay);
    }
  }
}

async function sendOnce<T>(method: string, path: string, options: RequestOptions): Promise<Envelope<T>> {
  const { response, body } = await send(method, path, options);
  if (isEnvelope(body)) {
    if (response.ok && body.success) return body as Envelope<T>;
    if (response.status === 409 && response.headers.has('retry-after'))
      throw new ApiError(IN_FLIGHT, body.message || t.api.httpError(response.status), response.status);
    throw new ApiError(body.code, body.message || t.api.httpError(response.status), response.status);
  }
  if (!response.ok)
    throw new ApiError(String(response.status), t.api.httpError(response.status), response.status);
  throw new ApiError('INVALID_RESPONSE', t.api.invalidResponse, response.status);
}

/**
 * GET of a plain JSON document (not an envelope: the OpenAPI document at /docs/json) with the
 * session, the tenant and the 401 rule of every other call. A failure envelope or an error
 * status throws ApiError as request() does.
 */
export async function getJson<T>(path: string, options: Omit<RequestOptions, 'body'> = {}): Promise<T> {
  const { response, body } = await send('GET', path, options);
  if (isEnvelope(body) && !body.success)
    throw new ApiError(body.code, body.message || t.api.httpError(response.status), response.status);
  if (!response.ok)
    throw new ApiError(String(response.status), t.api.httpError(response.status), response.status);
  if (typeof body !== 'object' || body === null)
    throw new ApiError('INVALID_RESPONSE', t.api.invalidResponse, response.status);
  return body as T;
}

/** One request: headers, timeout, the JSON body (null when not JSON), the 401 rule. */
async function send(
  method: string,
  path: string,
  options: RequestOptions,
): Promise<{ response: Response; body: unknown }> {
  const session = getSession();
  const token = isAdminPath(path) ? session.adminToken : session.token;
  const headers: Record<string, string> = {
    Accept: 'application/json',
    [TENANT_HEADER]: window.location.hostname,
  };
  if (token) headers.Authorization = `Bearer ${token}`;
  if (options.body !== undefined) headers['Content-Type'] = 'application/json';
  if (options.idempotencyKey) headers[IDEMPOTENCY_HEADER] = options.idempotencyKey;

  const timeout = new AbortController();
  const timer = setTimeout(() => timeout.abort(), options.timeoutMs ?? API_TIMEOUT_MS);
  const signal = options.signal ? AbortSignal.any([options.signal, timeout.signal]) : timeout.signal;

  let response: Response;
  let text: string;
  try {
    response = await fetch(buildUrl(path, options.query), {
      method,
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      signal,
    });
    text = await response.text();
  } catch (err) {
    if (options.signal?.aborted) throw err; // the caller cancelled: not an error to show
    if (timeout.signal.aborted) throw new ApiError('TIMEOUT', t.api.timeout, 0);
    throw new ApiError('NETWORK', t.api.network, 0);
  } finally {
    clearTimeout(timer);
  }

  let body: unknown = null;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    // not JSON: handled below
  }

  if ((response.status === 401 || (isEnvelope(body) && body.code === '401')) && !options.quietUnauthorized)
    onUnauthorized(path);
  return { response, body };
}

/** Sends one call and answers the envelope's data. */
export async function request<T>(method: string, path: string, options?: RequestOptions): Promise<T> {
  return (await requestEnvelope<T>(method, path, options)).data;
}

export const api = {
  get: <T>(path: string, options?: Omit<RequestOptions, 'body'>) => request<T>('GET', path, options),
  post: <T>(path: string, body?: unknown, options?: RequestOptions) =>
    request<T>('POST', path, { ...options, body }),
  put: <T>(path: string, body?: unknown, options?: RequestOptions) =>
    request<T>('PUT', path, { ...options, body }),
  patch: <T>(path: string, body?: unknown, options?: RequestOptions) =>
    request<T>('PATCH', path, { ...options, body }),
  delete: <T>(path: string, options?: RequestOptions) => request<T>('DELETE', path, options),
};
