import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixedClock } from '../../platform/clock.ts';
import { createTestApp } from '../../test/test-app.ts';
import { users } from './auth.tables.ts';
import { hashPassword } from './passwords.ts';
import { REFRESH_COOKIE, SECURE_REFRESH_COOKIE } from './refresh-cookie.ts';

// The refresh cookie is `__Host-` prefixed (Secure, Path=/, no Domain) on secure requests:
// HTTPS, or plain HTTP from a trusted proxy saying X-Forwarded-Proto: https. Plain HTTP (the demo
// on http://localhost:8080 and http://127.0.0.1:8080) keeps the old name, which browsers accept
// there; both names are read during the transition.

type T = Awaited<ReturnType<typeof createTestApp>>;
const clock = fixedClock('2026-11-22T08:00:00Z');
let t: T;
const PROXY = '10.0.0.7';

beforeAll(async () => {
  t = await createTestApp({ clock, config: { TRUST_PROXY: PROXY } });
});
afterAll(() => t.close());

let seq = 0;
const PASSWORD = 'Passw0rdOK';
const nextUser = async () => {
  const { user } = await t.createUser({ phone: `1340000${String(++seq).padStart(4, '0')}` });
  await t.db
    .update(users)
    .set({ passwordHash: await hashPassword(PASSWORD) })
    .where(eq(users.id, user.id));
  return user.phone;
};

const HTTPS_VIA_PROXY = { remoteAddress: PROXY, headers: { 'x-forwarded-proto': 'https' } };
const post = (
  url: string,
  via: { remoteAddress?: string; headers?: Record<string, string> },
  extra: { phone?: string; cookie?: string } = {},
) =>
  t.app.inject({
    method: 'POST',
    url,
    payload: url.endsWith('/login') ? { phone: extra.phone, password: PASSWORD, rememberMe: true } : {},
    remoteAddress: via.remoteAddress,
    headers: {
      'x-tenant-host': 'localhost',
      ...via.headers,
      ...(extra.cookie ? { cookie: extra.cookie } : {}),
    },
  });
type Res = Awaited<ReturnType<typeof post>>;
const cookie = (res: Res, name: string) => res.cookies.find((c) => c.name === name);

describe('refresh cookie name and attributes', () => {
  it('on plain HTTP keeps the old name on /api/auth, not Secure (the demo on localhost)', async () => {
    const phone = await nextUser();
    const res = await post('/api/auth/login', {}, { phone });
    expect(res.statusCode, res.body).toBe(200);
    expect(cookie(res, SECURE_REFRESH_COOKIE)).toBeUndefined();
    const rt = cookie(res, REFRESH_COOKIE);
    expect(rt).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/api/auth' });
    expect(rt?.secure).toBeFalsy();
    const refreshed = await post('/api/auth/refresh', {}, { cookie: `${REFRESH_COOKIE}=${rt?.value}` });
    expect(refreshed.statusCode).toBe(200);
    expect(cookie(refreshed, REFRESH_COOKIE)?.value).toBeTruthy();
  });

  it('behind a trusted proxy on HTTPS is __Host-: Secure, Path=/, no Domain, and refreshes', async () => {
    const phone = await nextUser();
    const res = await post('/api/auth/login', HTTPS_VIA_PROXY, { phone });
    expect(cookie(res, REFRESH_COOKIE)).toBeUndefined();
    const rt = cookie(res, SECURE_REFRESH_COOKIE);
    expect(rt).toMatchObject({ httpOnly: true, sameSite: 'Strict', secure: true, path: '/' });
    expect(rt?.domain).toBeUndefined();
    const refreshed = await post('/api/auth/refresh', HTTPS_VIA_PROXY, {
      cookie: `${SECURE_REFRESH_COOKIE}=${rt?.value}`,
    });
    expect(refreshed.statusCode, refreshed.body).toBe(200);
    expect(cookie(refreshed, SECURE_REFRESH_COOKIE)).toMatchObject({ secure: true, path: '/' });
  });

  it('trusts X-Forwarded-Proto only from the trusted proxy', async () => {
    const phone = await nextUser();
    const res = await post(
      '/api/auth/login',
      { remoteAddress: '203.0.113.5', headers: HTTPS_VIA_PROXY.headers },
      {
        phone,
      },
    );
    expect(res.statusCode).toBe(200);
    expect(cookie(res, SECURE_REFRESH_COOKIE)).toBeUndefined();
    expect(cookie(res, REFRESH_COOKIE)).toBeDefined();
  });

  it('reads the old name during the transition: refresh moves it to __Host- and clears the old one', async () => {
    const phone = await nextUser();
    const old = cookie(await post('/api/auth/login', {}, { phone }), REFRESH_COOKIE)?.value;
    const moved = await post('/api/auth/refresh', HTTPS_VIA_PROXY, { cookie: `${REFRESH_COOKIE}=${old}` });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(cookie(moved, SECURE_REFRESH_COOKIE)?.value).toBeTruthy();
    const cleared = cookie(moved, REFRESH_COOKIE);
    expect(cleared).toMatchObject({ value: '', path: '/api/auth' });
    expect(cleared?.expires?.getTime()).toBe(0);
  });

  it('logout ends the session of either name and clears both', async () => {
    for (const [name, via] of [
      [SECURE_REFRESH_COOKIE, HTTPS_VIA_PROXY],
      [REFRESH_COOKIE, {}],
    ] as const) {
      const phone = await nextUser();
      const rt = cookie(await post('/api/auth/login', via, { phone }), name)?.value;
      const out = await post('/api/auth/logout', via, { cookie: `${name}=${rt}` });
      expect(out.statusCode).toBe(200);
      expect(cookie(out, name)).toMatchObject({ value: '' });
      const again = await post('/api/auth/refresh', via, { cookie: `${name}=${rt}` });
      expect(again.statusCode).toBe(401);
    }
  });
});
