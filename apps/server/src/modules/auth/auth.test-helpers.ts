import { expect } from 'vitest';
import type { fixedClock } from '../../platform/clock.ts';
import type { createTestApp } from '../../test/test-app.ts';
import { REFRESH_COOKIE } from './refresh-cookie.ts';

export type T = Awaited<ReturnType<typeof createTestApp>>;
export const PASSWORD = 'Passw0rdOK';

/**
 * Requests of the auth tests against one file's app and clock. Each file passes its own: test
 * files share modules in a worker (isolate: false), so nothing here may keep an app or a clock.
 */
export function authRequests(app: () => T, clock: ReturnType<typeof fixedClock>) {
  let phoneSeq = 0;
  const nextPhone = () => `1370000${String(++phoneSeq).padStart(4, '0')}`;
  const post = (url: string, payload: unknown, headers: Record<string, string> = {}) =>
    app().app.inject({
      method: 'POST',
      url,
      payload: payload as object,
      headers: { 'x-tenant-host': 'localhost', ...headers },
    });
  const get = (url: string, headers: Record<string, string> = {}) =>
    app().app.inject({ method: 'GET', url, headers: { 'x-tenant-host': 'localhost', ...headers } });
  const cookieOf = (res: Awaited<ReturnType<typeof post>>) =>
    res.cookies.find((c) => c.name === REFRESH_COOKIE) as
      | { value: string; httpOnly?: boolean; sameSite?: string; path?: string; expires?: Date }
      | undefined;

  async function sendCode(phone: string, codeType = 'REGISTER', host = 'localhost') {
    const res = await post(
      '/api/auth/send-verification-code',
      { phone, codeType },
      { 'x-tenant-host': host },
    );
    expect(res.statusCode, res.body).toBe(200);
    clock.advance(61_000);
    return res.json().data.code as string;
  }

  async function registerUser(phone = nextPhone(), host = 'localhost') {
    const code = await sendCode(phone, 'REGISTER', host);
    const res = await post(
      '/api/auth/register',
      { phone, verificationCode: code, password: PASSWORD, confirmPassword: PASSWORD },
      { 'x-tenant-host': host },
    );
    expect(res.statusCode, res.body).toBe(200);
    return phone;
  }

  async function login(phone: string, password = PASSWORD, rememberMe = false, host = 'localhost') {
    return post('/api/auth/login', { phone, password, rememberMe }, { 'x-tenant-host': host });
  }

  return { nextPhone, post, get, cookieOf, sendCode, registerUser, login };
}
