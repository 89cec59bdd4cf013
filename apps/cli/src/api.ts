import { randomUUID } from 'node:crypto';
import pkg from '../package.json' with { type: 'json' };
import { CliError, EXIT, exitForStatus } from './exit.ts';
import { ERROR_CODES_EN, type Lang, say } from './messages.ts';

export const CLI_VERSION: string = pkg.version;
const DEFAULT_TIMEOUT_MS = 30_000;
/** Tries of a request that is safe to repeat (a GET, or a POST with its Idempotency-Key). */
const ATTEMPTS = 3;
/** Statuses where the same request may succeed a moment later. */
const TRANSIENT = new Set([502, 503, 504]);
/** Connection errors not worth a retry: nobody listens there. */
const UNREACHABLE = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);

export type Query = Record<string, string | number | boolean | undefined>;
export interface RequestOptions {
  query?: Query;
  body?: unknown;
  /** Sent as Idempotency-Key; the server answers a repeat with the first answer. */
  idempotencyKey?: string;
  timeoutMs?: number;
}

/** The API's address as typed, without a trailing slash or /api (the routes carry /api). */
export function normaliseApi(raw: string, lang: Lang) {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw new CliError(EXIT.usage, say(lang, 'badApi'));
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new CliError(EXIT.usage, say(lang, 'badApi'));
  return url
    .toString()
    .replace(/\/+$/, '')
    .replace(/\/api$/, '');
}

export const newIdempotencyKey = () => `cli-${randomUUID()}`;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export interface Api {
  readonly base: string;
  get<T>(path: string, query?: Query, timeoutMs?: number): Promise<T>;
  post<T>(path: string, opts?: RequestOptions): Promise<T>;
}

export function createApi(base: string, token: string | undefined, lang: Lang): Api {
  const once = async <T>(method: string, path: string, opts: RequestOptions): Promise<T> => {
    const url = new URL(`${base}${path}`);
    for (const [k, v] of Object.entries(opts.query ?? {}))
      if (v !== undefined) url.searchParams.set(k, String(v));
    const headers: Record<string, string> = {
      accept: 'application/json',
      'user-agent': `gpu-cli/${CLI_VERSION}`,
    };
    if (token) headers.authorization = `Bearer ${token}`;
    if (opts.idempotencyKey) headers['idempotency-key'] = opts.idempotencyKey;
    if (opts.body !== undefined) headers['content-type'] = 'application/json';
    let res: Response;
    let text: string;
    try {
      res = await fetch(url, {
        method,
        headers,
        body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
        signal: AbortSignal.timeout(opts.timeoutMs ?? DEFAULT_TIMEOUT_MS),
      });
      text = await res.text();
    } catch (err) {
      const cause = (err as { cause?: { code?: string; message?: string } }).cause;
      const why = cause?.code ?? cause?.message ?? (err as Error).message;
      throw new CliError(EXIT.server, `${say(lang, 'cannotReach')} ${base}: ${why}`, {
        errorCode: UNREACHABLE.has(cause?.code ?? '') ? 'cli.unreachable' : 'cli.network',
      });
    }
    let body: { success?: unknown; message?: unknown; data?: unknown; errorCode?: unknown };
    try {
      body = JSON.parse(text) as typeof body;
    } catch {
      // Not the API's envelope (a proxy's error page, a wrong address): a server-side matter.
      const message =
        res.status >= 500 ? `${say(lang, 'serverError')} (HTTP ${res.status})` : say(lang, 'notApi');
      throw new CliError(EXIT.server, message, { status: res.status });
    }
    if (res.ok && body.success === true) return body.data as T;
    const errorCode = typeof body.errorCode === 'string' ? body.errorCode : undefined;
    const message = typeof body.message === 'string' ? body.message : `HTTP ${res.status}`;
    throw new CliError(res.ok ? EXIT.rejected : exitForStatus(res.status), message, {
      status: res.status,
      errorCode,
      en: errorCode ? ERROR_CODES_EN[errorCode] : undefined,
    });
  };

  /** A GET or a keyed POST is tried again after a dropped connection or a 502/503/504. */
  const request = async <T>(method: string, path: string, opts: RequestOptions): Promise<T> => {
    const repeatable = method === 'GET' || opts.idempotencyKey !== undefined;
    for (let attempt = 1; ; attempt++) {
      try {
        return await once<T>(method, path, opts);
      } catch (err) {
        const e = err as CliError;
        const transient =
          e.extra?.errorCode === 'cli.network' ||
          e.extra?.errorCode === 'idempotency.in_flight' ||
          TRANSIENT.has(e.extra?.status ?? 0);
        if (!repeatable || !transient || attempt >= ATTEMPTS) throw err;
        await sleep(500 * 2 ** attempt);
      }
    }
  };

  return {
    base,
    get: (path, query, timeoutMs) => request('GET', path, { query, timeoutMs }),
    post: (path, opts = {}) => request('POST', path, opts),
  };
}
