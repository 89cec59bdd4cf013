import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixedClock } from '../../platform/clock.ts';
import { createTestApp } from '../../test/test-app.ts';
import { auditLog } from '../audit/audit.tables.ts';
import { authRequests, PASSWORD, type T } from './auth.test-helpers.ts';
import { hashPassword } from './passwords.ts';
import { REFRESH_COOKIE } from './refresh-cookie.ts';

const clock = fixedClock('2026-11-22T08:00:00Z');
let t: T;

beforeAll(async () => {
  t = await createTestApp({ clock });
});
afterAll(() => t.close());

const { post, get, cookieOf, registerUser, login } = authRequests(() => t, clock);

describe('refresh tokens', () => {
  it('sets an HttpOnly SameSite=Strict cookie whose lifetime follows rememberMe', async () => {
    const phone = await registerUser();
    const session = cookieOf(await login(phone, PASSWORD, false));
    expect(session).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/api/auth' });
    expect(session?.expires).toBeUndefined();
    const remembered = cookieOf(await login(phone, PASSWORD, true));
    expect(remembered?.expires?.getTime()).toBe(
      clock.now().getTime() + 30 * 24 * 3600_000 - (clock.now().getTime() % 1000),
    );
  });

  it('rotates on use and revokes the family when a spent token comes back', async () => {
    const phone = await registerUser();
    const first = cookieOf(await login(phone))?.value as string;
    const r1 = await post('/api/auth/refresh', {}, { cookie: `${REFRESH_COOKIE}=${first}` });
    expect(r1.statusCode).toBe(200);
    expect(r1.json().data.accessToken).toBeTruthy();
    const second = cookieOf(r1)?.value as string;
    expect(second).not.toBe(first);

    const replay = await post('/api/auth/refresh', {}, { cookie: `${REFRESH_COOKIE}=${first}` });
    expect(replay.statusCode).toBe(401);
    // The thief's replay also ends the rightful holder's newer token.
    expect((await post('/api/auth/refresh', {}, { cookie: `${REFRESH_COOKIE}=${second}` })).statusCode).toBe(
      401,
    );
  });

  it('ends a refresh family 30 days after sign-in, however often it rotates', async () => {
    const phone = await registerUser();
    const signedInAt = clock.now().getTime();
    let rt = cookieOf(await login(phone, PASSWORD, true))?.value as string;
    const rotate = () => post('/api/auth/refresh', {}, { cookie: `${REFRESH_COOKIE}=${rt}` });
    for (const day of [7, 14, 21, 28]) {
      clock.advance(7 * 24 * 3600_000);
      const res = await rotate();
      expect(res.statusCode, `day ${day}: ${res.body}`).toBe(200);
      const next = cookieOf(res);
      // A rotated cookie never outlives the family.
      expect(next?.expires?.getTime()).toBeLessThanOrEqual(signedInAt + 30 * 24 * 3600_000);
      rt = next?.value as string;
    }
    // Day 28 rotated; day 30 is the end even though that token is two days old.
    clock.advance(2 * 24 * 3600_000);
    const late = await rotate();
    expect(late.statusCode).toBe(401);
    expect(late.json().message).toBe('登录已失效，请重新登录');
  });

  it('logout revokes the refresh token', async () => {
    const phone = await registerUser();
    const rt = cookieOf(await login(phone))?.value as string;
    expect((await post('/api/auth/logout', {}, { cookie: `${REFRESH_COOKIE}=${rt}` })).json().message).toBe(
      '已退出登录',
    );
    expect((await post('/api/auth/refresh', {}, { cookie: `${REFRESH_COOKIE}=${rt}` })).statusCode).toBe(401);
  });
});

describe('logout', () => {
  it('without the refresh cookie still ends the session the access token names, and only it', async () => {
    const phone = await registerUser();
    const res = await login(phone);
    const auth = { authorization: `Bearer ${res.json().data.accessToken}` };
    const rt = cookieOf(res)?.value as string;
    const other = { authorization: `Bearer ${(await login(phone)).json().data.accessToken}` };
    const out = await post('/api/auth/logout', {}, auth);
    expect(out.statusCode).toBe(200);
    expect(out.json().message).toBe('已退出登录');
    expect((await get('/api/auth/me', auth)).statusCode).toBe(401);
    // Its refresh family ends with it.
    expect((await post('/api/auth/refresh', {}, { cookie: `${REFRESH_COOKIE}=${rt}` })).statusCode).toBe(401);
    expect((await get('/api/auth/me', other)).statusCode).toBe(200);
  });

  it('ends both sessions when the cookie and the token name different ones, and answers 200 without either', async () => {
    const phone = await registerUser();
    const a = await login(phone);
    const b = await login(phone);
    const rtA = cookieOf(a)?.value as string;
    const authB = { authorization: `Bearer ${b.json().data.accessToken}` };
    expect(
      (await post('/api/auth/logout', {}, { ...authB, cookie: `${REFRESH_COOKIE}=${rtA}` })).statusCode,
    ).toBe(200);
    expect((await get('/api/auth/me', authB)).statusCode).toBe(401);
    expect(
      (await get('/api/auth/me', { authorization: `Bearer ${a.json().data.accessToken}` })).statusCode,
    ).toBe(401);
    expect((await post('/api/auth/logout', {})).statusCode).toBe(200);
    expect((await post('/api/auth/logout', {}, { authorization: 'Bearer not-a-token' })).statusCode).toBe(
      200,
    );
  });
});

describe('admins', () => {
  beforeAll(async () => {
    await t.app.deps.core.db.insert((await import('./auth.tables.ts')).admins).values({
      username: 'boss',
      passwordHash: await hashPassword('Boss12345'),
      roles: ['ADMIN'],
    });
  });

  it('signs in with code 200, token and roles, and records it in the audit log', async () => {
    const res = await post('/api/admin/auth/login', { username: 'boss', password: 'Boss12345' });
    expect(res.json()).toMatchObject({
      success: true,
      code: '200',
      data: { admin: { username: 'boss', roles: ['ADMIN', 'READONLY'] } },
    });
    const token = res.json().data.token;
    expect((await get('/api/admin/auth/me', { authorization: `Bearer ${token}` })).json().data.username).toBe(
      'boss',
    );
    const rows = await t.db.select().from(auditLog).where(eq(auditLog.action, 'admin.login'));
    expect(rows.length).toBe(1);
    const bad = await post('/api/admin/auth/login', { username: 'boss', password: 'wrong' });
    expect(bad.statusCode).toBe(401);
    expect(bad.json().message).toBe('用户名或密码错误');
  });

  it('keeps admin and user tokens apart', async () => {
    const admin = (await post('/api/admin/auth/login', { username: 'boss', password: 'Boss12345' })).json()
      .data.token;
    const user = (await login(await registerUser())).json().data.accessToken;
    expect((await get('/api/admin/auth/me', { authorization: `Bearer ${user}` })).statusCode).toBe(401);
    expect((await get('/api/auth/me', { authorization: `Bearer ${admin}` })).statusCode).toBe(401);
    expect((await get('/api/user/balance', { authorization: `Bearer ${admin}` })).statusCode).toBe(401);
  });

  it('logout ends the admin token', async () => {
    const token = (await post('/api/admin/auth/login', { username: 'boss', password: 'Boss12345' })).json()
      .data.token;
    const auth = { authorization: `Bearer ${token}` };
    expect((await post('/api/admin/auth/logout', {}, auth)).statusCode).toBe(200);
    expect((await get('/api/admin/auth/me', auth)).statusCode).toBe(401);
  });

  it('refuses forged and expired tokens', async () => {
    const token = (await post('/api/admin/auth/login', { username: 'boss', password: 'Boss12345' })).json()
      .data.token as string;
    const forged = `${token.slice(0, -4)}AAAA`;
    expect((await get('/api/admin/auth/me', { authorization: `Bearer ${forged}` })).statusCode).toBe(401);
    clock.advance(9 * 3600_000);
    expect((await get('/api/admin/auth/me', { authorization: `Bearer ${token}` })).statusCode).toBe(401);
  });
});
