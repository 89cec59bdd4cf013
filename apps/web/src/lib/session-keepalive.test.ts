import type { Admin, User } from '@gpu/shared/auth';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { REFRESH_AHEAD_MS, refreshDelay, tokenExpiry } from './session-keepalive';

const b64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
/** A JWT-shaped token expiring at `expMs` (only the payload matters to the client). */
const jwt = (expMs: number, extra: Record<string, unknown> = {}) =>
  `${b64url({ alg: 'HS256' })}.${b64url({ exp: Math.floor(expMs / 1000), aud: 'user', ...extra })}.sig`;

const user = { id: 7, username: 'u7' } as User;
const admin = {
  id: 3,
  username: 'ops',
  roles: ['ADMIN', 'OPERATIONS'],
  permissions: ['hosts:read'],
} as Admin;

/** Fresh modules (after vi.resetModules), with the client's navigate recorded. */
async function load() {
  const session = await import('./session');
  const keepalive = await import('./session-keepalive');
  const navigate = vi.fn();
  (await import('./api-client')).configureApiClient({ navigate });
  return { session, keepalive, navigate };
}

describe('tokenExpiry / refreshDelay', () => {
  it('reads exp of a JWT (base64url, any padding)', () => {
    expect(tokenExpiry(jwt(2_000_000_000_000))).toBe(2_000_000_000_000);
    expect(tokenExpiry(jwt(2_000_000_000_000, { name: '中文??>>' }))).toBe(2_000_000_000_000);
  });

  it('is null for tokens that are not JWTs or carry no exp', () => {
    expect(tokenExpiry('tok')).toBeNull();
    expect(tokenExpiry('a.b.c')).toBeNull();
    expect(tokenExpiry(`x.${b64url({ sub: 1 })}.y`)).toBeNull();
  });

  it('refreshes 5 minutes ahead, at once inside that window, never for an expired token', () => {
    const now = 1_000_000_000_000;
    expect(refreshDelay(jwt(now + 2 * 3600_000), now)).toBe(2 * 3600_000 - REFRESH_AHEAD_MS);
    expect(refreshDelay(jwt(now + 60_000), now)).toBe(0);
    expect(refreshDelay(jwt(now - 1_000), now)).toBeNull();
    expect(refreshDelay('tok', now)).toBeNull();
  });
});

describe('startSessionKeepAlive', () => {
  const NOW = 1_700_000_000_000;
  let fetchMock: ReturnType<typeof vi.fn>;

  beforeEach(() => {
    vi.useFakeTimers({ now: NOW, toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    vi.resetModules();
    fetchMock = vi.fn();
    vi.stubGlobal('fetch', fetchMock);
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  const answer = (body: unknown, status = 200) =>
    Promise.resolve(new Response(JSON.stringify(body), { status }));

  it('refreshes shortly before expiry and keeps the session where it was stored', async () => {
    const { session, keepalive } = await load();
    const first = jwt(NOW + 10 * 60_000);
    session.setUserSession(first, user, false);
    keepalive.startSessionKeepAlive();

    const second = jwt(NOW + 2 * 3600_000);
    fetchMock.mockImplementation(() =>
      answer({ success: true, code: '200', message: '成功', data: { accessToken: second, user } }),
    );
    await vi.advanceTimersByTimeAsync(5 * 60_000 - 1_000);
    expect(fetchMock).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1_000);
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(String(fetchMock.mock.calls[0]?.[0])).toBe('/api/auth/refresh');
    expect(session.getSession().token).toBe(second);
    // not remembered: still in sessionStorage only
    expect(window.sessionStorage.getItem(session.STORAGE_KEYS.token)).toBe(second);
    expect(window.localStorage.getItem(session.STORAGE_KEYS.token)).toBeNull();
    // and the next refresh is planned for the new token: 5 minutes before it expires
    await vi.advanceTimersByTimeAsync(2 * 3600_000 - 10 * 60_000 - 1_000);
    expect(fetchMock).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(fetchMock).toHaveBeenCalledTimes(2);
  });

  it('keeps the admin session alive through its own refresh call, beside the user one', async () => {
    const { session, keepalive } = await load();
    session.setUserSession(jwt(NOW + 2 * 3600_000), user, true);
    session.setAdminSession(jwt(NOW + 3600_000, { aud: 'admin' }), admin);
    keepalive.startSessionKeepAlive();
    const next = jwt(NOW + 2 * 3600_000, { aud: 'admin' });
    fetchMock.mockImplementation(() =>
      answer({ success: true, code: '200', message: '已刷新', data: { token: next, admin } }),
    );
    await vi.advanceTimersByTimeAsync(55 * 60_000 - 1_000);
    expect(fetchMock).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1_000);
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(String(fetchMock.mock.calls[0]?.[0])).toBe('/api/admin/auth/refresh');
    expect(session.getSession().adminToken).toBe(next);
    expect(session.getSession().token).not.toBe(next);
  });

  it('retries after a refresh that got no answer, and stops once logged out', async () => {
    const { session, keepalive } = await load();
    session.setUserSession(jwt(NOW + 6 * 60_000), user, true);
    keepalive.startSessionKeepAlive();
    fetchMock.mockImplementation(() => Promise.reject(new TypeError('offline')));
    await vi.advanceTimersByTimeAsync(60_000);
    expect(fetchMock).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(keepalive.REFRESH_RETRY_MS);
    expect(fetchMock).toHaveBeenCalledTimes(2);
    session.clearUserSession();
    await vi.advanceTimersByTimeAsync(10 * 60_000);
    expect(fetchMock).toHaveBeenCalledTimes(2);
  });

  it('leaves an expired or non-JWT token to the 401 rule', async () => {
    const { session, keepalive } = await load();
    session.setUserSession(jwt(NOW - 1_000), user, true);
    keepalive.startSessionKeepAlive();
    session.setUserSession('tok', user, true);
    await vi.advanceTimersByTimeAsync(3 * 3600_000);
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('a 401 on refresh ends the session (the client 401 rule)', async () => {
    const { session, keepalive, navigate } = await load();
    session.setUserSession(jwt(NOW + 60_000), user, true);
    fetchMock.mockImplementation(() =>
      answer(
        { success: false, code: 'auth.refresh_invalid', message: '登录已失效，请重新登录', data: null },
        401,
      ),
    );
    keepalive.startSessionKeepAlive();
    await vi.advanceTimersByTimeAsync(0);
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(session.getSession().token).toBeNull();
    expect(navigate).toHaveBeenCalledWith('/login?redirect=%2F');
    await vi.advanceTimersByTimeAsync(10 * 60_000);
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });
});

describe('resumeExpiredSession (start-up)', () => {
  const NOW = 1_700_000_000_000;
  let fetchMock: ReturnType<typeof vi.fn>;

  beforeEach(() => {
    vi.resetModules();
    localStorage.clear();
    sessionStorage.clear();
    fetchMock = vi.fn();
    vi.stubGlobal('fetch', fetchMock);
  });
  afterEach(() => vi.unstubAllGlobals());

  it('renews a remembered token that expired while the app was closed', async () => {
    const { session, keepalive } = await load();
    session.setUserSession(jwt(NOW - 3 * 3600_000), user, true);
    const fresh = jwt(NOW + 2 * 3600_000);
    fetchMock.mockResolvedValue(
      Response.json({ success: true, code: '200', message: '成功', data: { accessToken: fresh, user } }),
    );
    await keepalive.resumeExpiredSession(NOW);
    expect(String(fetchMock.mock.calls[0]?.[0])).toBe('/api/auth/refresh');
    expect(session.getSession().token).toBe(fresh);
    expect(localStorage.getItem(session.STORAGE_KEYS.token)).toBe(fresh);
  });

  it('drops the session quietly when the refresh token is gone too (no trip to /login)', async () => {
    const { session, keepalive, navigate } = await load();
    session.setUserSession(jwt(NOW - 1_000), user, true);
    fetchMock.mockResolvedValue(
      Response.json(
        { success: false, code: 'auth.refresh_invalid', message: '登录已失效，请重新登录', data: null },
        { status: 401 },
      ),
    );
    await keepalive.resumeExpiredSession(NOW);
    expect(session.getSession().token).toBeNull();
    expect(localStorage.getItem(session.STORAGE_KEYS.token)).toBeNull();
    expect(navigate).not.toHaveBeenCalled();
  });

  it('exchanges an expired stored admin token at start-up, and drops it quietly on 401', async () => {
    const { session, keepalive, navigate } = await load();
    session.setAdminSession(jwt(NOW - 1_000), admin);
    const fresh = jwt(NOW + 3600_000);
    fetchMock.mockResolvedValueOnce(
      Response.json({ success: true, code: '200', message: '已刷新', data: { token: fresh, admin } }),
    );
    await keepalive.resumeExpiredSession(NOW);
    expect(String(fetchMock.mock.calls[0]?.[0])).toBe('/api/admin/auth/refresh');
    expect(session.getSession().adminToken).toBe(fresh);

    session.setAdminSession(jwt(NOW - 1_000), admin);
    fetchMock.mockResolvedValueOnce(
      Response.json(
        { success: false, code: 'auth.refresh_invalid', message: '登录已失效，请重新登录', data: null },
        { status: 401 },
      ),
    );
    await keepalive.resumeExpiredSession(NOW);
    expect(session.getSession().adminToken).toBeNull();
    expect(navigate).not.toHaveBeenCalled();
  });

  it('keeps the session when the refresh got no answer, and leaves live or absent tokens alone', async () => {
    const { session, keepalive } = await load();
    await keepalive.resumeExpiredSession(NOW);
    const live = jwt(NOW + 60_000);
    session.setUserSession(live, user, true);
    await keepalive.resumeExpiredSession(NOW);
    expect(fetchMock).not.toHaveBeenCalled();

    const stale = jwt(NOW - 1_000);
    session.setUserSession(stale, user, true);
    fetchMock.mockRejectedValue(new TypeError('offline'));
    await keepalive.resumeExpiredSession(NOW);
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(session.getSession().token).toBe(stale);
  });
});
