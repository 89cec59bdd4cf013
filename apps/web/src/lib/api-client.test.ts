import type { Admin, User } from '@gpu/shared/auth';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { adminFixture } from '../test/admin-fixture';
import {
  ApiError,
  api,
  configureApiClient,
  getJson,
  requestEnvelope,
  unauthorizedRedirect,
} from './api-client';
import { getSession, setAdminSession, setUserSession } from './session';

const user = { id: 1, username: 'u138' } as User;
const admin: Admin = adminFixture('SUPER', { permissions: [] });

const ok = (data: unknown) => ({ success: true, code: '200', message: 'ok', data });
const fail = (code: string, message: string) => ({ success: false, code, message, data: null });

function mockFetch(status: number, body: unknown) {
  const fn = vi.fn(
    async (_url: string, _init: RequestInit) =>
      new Response(typeof body === 'string' ? body : JSON.stringify(body), { status }),
  );
  vi.stubGlobal('fetch', fn);
  return fn;
}

const headersOf = (fn: ReturnType<typeof mockFetch>) =>
  fn.mock.calls[0]?.[1].headers as Record<string, string>;

let navigate: ReturnType<typeof vi.fn<(to: string) => void>>;
beforeEach(() => {
  navigate = vi.fn<(to: string) => void>();
  configureApiClient({ navigate });
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

describe('api client', () => {
  it('calls /api with JSON, the tenant header and the query, and unwraps data', async () => {
    const fetch = mockFetch(200, ok({ list: [1] }));
    const data = await api.post<{ list: number[] }>(
      '/gpu/sync',
      { a: 1 },
      { query: { page: 2, x: undefined } },
    );
    expect(data).toEqual({ list: [1] });
    const [url, init] = fetch.mock.calls[0] ?? [];
    expect(url).toBe('/api/gpu/sync?page=2');
    expect(init?.method).toBe('POST');
    expect(init?.body).toBe('{"a":1}');
    expect(headersOf(fetch)).toMatchObject({
      'X-Tenant-Host': window.location.hostname,
      'Content-Type': 'application/json',
    });
    expect(headersOf(fetch).Authorization).toBeUndefined();
  });

  it('chooses the bearer token by path: /admin paths use the admin token', async () => {
    setUserSession('user-token', user);
    setAdminSession('admin-token', admin);
    let fetch = mockFetch(200, ok(null));
    await api.get('/user/balance');
    expect(headersOf(fetch).Authorization).toBe('Bearer user-token');
    fetch = mockFetch(200, ok(null));
    await api.get('/admin/hosts');
    expect(headersOf(fetch).Authorization).toBe('Bearer admin-token');
    fetch = mockFetch(200, ok(null));
    await api.get('/administrators-are-not-admin-paths');
    expect(headersOf(fetch).Authorization).toBe('Bearer user-token');
  });

  it('answers the whole envelope when asked', async () => {
    mockFetch(200, ok(5));
    expect(await requestEnvelope('GET', '/x')).toEqual(ok(5));
  });

  it('throws ApiError with code, message and status when success is false', async () => {
    mockFetch(422, fail('422', '代金券已过期'));
    const err = await api.get('/user/vouchers').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ code: '422', message: '代金券已过期', status: 422 });
  });

  it('throws when HTTP is ok but the envelope says failure', async () => {
    mockFetch(200, fail('409', '手机号已注册'));
    await expect(api.get('/x')).rejects.toMatchObject({ code: '409', message: '手机号已注册', status: 200 });
  });

  it('throws a readable error for a non-JSON failure and for a non-envelope answer', async () => {
    mockFetch(502, '<html>Bad Gateway</html>');
    await expect(api.get('/x')).rejects.toMatchObject({
      code: '502',
      status: 502,
      message: '请求失败（502）',
    });
    mockFetch(200, { hello: 'world' });
    await expect(api.get('/x')).rejects.toMatchObject({ code: 'INVALID_RESPONSE' });
  });

  it('turns a network failure into ApiError NETWORK', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => {
        throw new TypeError('Failed to fetch');
      }),
    );
    await expect(api.get('/x')).rejects.toMatchObject({ code: 'NETWORK', status: 0 });
  });

  it('gives up after the 10 s timeout', async () => {
    vi.useFakeTimers();
    vi.stubGlobal(
      'fetch',
      vi.fn(
        (_url: string, init: RequestInit) =>
          new Promise((_resolve, reject) =>
            init.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError'))),
          ),
      ),
    );
    const pending = api.get('/slow').catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(9_999);
    await vi.advanceTimersByTimeAsync(1);
    expect(await pending).toMatchObject({ code: 'TIMEOUT', message: '请求超时，请稍后重试' });
  });

  it("rethrows the caller's own abort untouched", async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async (_url: string, init: RequestInit) => {
        init.signal?.throwIfAborted();
        return new Response('{}');
      }),
    );
    const controller = new AbortController();
    controller.abort();
    await expect(api.get('/x', { signal: controller.signal })).rejects.toHaveProperty('name', 'AbortError');
  });
});

describe('getJson (a plain JSON document: the OpenAPI document)', () => {
  it('answers the document as it is, sent with the session', async () => {
    setUserSession('user-token', user);
    const fetch = mockFetch(200, { openapi: '3.0.3', paths: {} });
    expect(await getJson('/docs/json')).toEqual({ openapi: '3.0.3', paths: {} });
    expect(fetch.mock.calls[0]?.[0]).toBe('/api/docs/json');
    expect(headersOf(fetch).Authorization).toBe('Bearer user-token');
  });

  it('throws the failure envelope, an error status and a non-JSON answer as ApiError', async () => {
    mockFetch(404, fail('404', '接口不存在'));
    await expect(getJson('/docs/json')).rejects.toMatchObject({
      code: '404',
      message: '接口不存在',
      status: 404,
    });
    mockFetch(502, '<html>bad gateway</html>');
    await expect(getJson('/docs/json')).rejects.toMatchObject({ code: '502', status: 502 });
    mockFetch(200, '<html></html>');
    await expect(getJson('/docs/json')).rejects.toMatchObject({ code: 'INVALID_RESPONSE' });
  });

  it('follows the 401 rule', async () => {
    setUserSession('user-token', user);
    mockFetch(401, fail('401', '请先登录'));
    await expect(getJson('/docs/json')).rejects.toBeInstanceOf(ApiError);
    expect(getSession().token).toBeNull();
    expect(navigate).toHaveBeenCalled();
  });
});

describe('the 401 rule', () => {
  it('clears the user session and sends the browser to /login with a redirect', async () => {
    window.history.replaceState(null, '', '/console/orders?page=2');
    setUserSession('tok', user);
    setAdminSession('adm', admin);
    mockFetch(401, fail('401', '登录已过期'));
    await expect(api.get('/user/balance')).rejects.toMatchObject({ status: 401 });
    expect(getSession()).toMatchObject({ token: null, user: null, adminToken: 'adm' });
    expect(navigate).toHaveBeenCalledWith('/login?redirect=%2Fconsole%2Forders%3Fpage%3D2');
  });

  it('on an admin path clears admin credentials too and goes to /admin/login', async () => {
    window.history.replaceState(null, '', '/admin/hosts');
    setUserSession('tok', user);
    setAdminSession('adm', admin);
    mockFetch(401, fail('401', '请先登录'));
    await expect(api.get('/admin/hosts')).rejects.toBeInstanceOf(ApiError);
    expect(getSession()).toMatchObject({ token: null, user: null, adminToken: null, admin: null });
    expect(navigate).toHaveBeenCalledWith('/admin/login?redirect=%2Fadmin%2Fhosts');
  });

  it.each(['/login', '/register', '/admin/login'])('stays on %s', async (page) => {
    window.history.replaceState(null, '', page);
    mockFetch(401, fail('401', '手机号或密码错误'));
    await expect(api.post('/auth/login', {})).rejects.toMatchObject({ message: '手机号或密码错误' });
    expect(navigate).not.toHaveBeenCalled();
  });

  it('is a pure decision too', () => {
    expect(unauthorizedRedirect('/gpu/instances', { pathname: '/', search: '' })).toBe('/login?redirect=%2F');
    expect(unauthorizedRedirect('/admin/auth/me', { pathname: '/admin', search: '' })).toBe(
      '/admin/login?redirect=%2Fadmin',
    );
    expect(unauthorizedRedirect('/admin/auth/me', { pathname: '/admin/login', search: '' })).toBeNull();
  });
});
