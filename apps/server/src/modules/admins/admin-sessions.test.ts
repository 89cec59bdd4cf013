import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixedClock } from '../../platform/clock.ts';
import { createTestApp } from '../../test/test-app.ts';
import { auditLog } from '../audit/audit.tables.ts';
import { admins } from '../auth/auth.tables.ts';
import { hashPassword } from '../auth/index.ts';

type T = Awaited<ReturnType<typeof createTestApp>>;
const clock = fixedClock('2026-11-26T02:00:00Z');
let t: T;
let superHeaders: Record<string, string>;
beforeAll(async () => {
  t = await createTestApp({ clock, demo: false });
  await t.db
    .insert(admins)
    .values({ username: 'boss', passwordHash: await hashPassword('Boss12345'), role: 'SUPER' });
  superHeaders = await signIn('boss', 'Boss12345').then((s) => s.headers);
});
afterAll(() => t.close());

const COOKIE = 'gpu_art';
async function signIn(username: string, password: string, ip = '192.0.2.10') {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/admin/auth/login',
    payload: { username, password },
    remoteAddress: ip,
  });
  expect(res.statusCode, res.body).toBe(200);
  const cookie = res.cookies.find((c) => c.name === COOKIE);
  return {
    res,
    data: res.json().data,
    headers: { authorization: `Bearer ${res.json().data.token}` },
    cookie: cookie?.value as string,
    cookieAttrs: cookie,
  };
}
const refresh = (cookie: string) =>
  t.app.inject({
    method: 'POST',
    url: '/api/admin/auth/refresh',
    headers: { cookie: `${COOKIE}=${cookie}` },
  });
const me = (headers: Record<string, string>) => t.app.inject({ url: '/api/admin/auth/me', headers });
const call = (
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  url: string,
  headers: Record<string, string>,
  payload?: object,
) => t.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });

describe('administrator sessions', () => {
  it('sign-in answers SPEC’s token and admin (ADMIN plus the role) and sets an HttpOnly refresh cookie', async () => {
    const s = await signIn('boss', 'Boss12345');
    expect(s.data.admin).toMatchObject({
      username: 'boss',
      roles: ['ADMIN', 'SUPER'],
      role: 'SUPER',
      tenantId: null,
    });
    expect(s.data.admin.permissions).toContain('admins:write');
    expect(s.cookieAttrs).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/api/admin/auth' });
    const [row] = await t.db.select().from(admins).where(eq(admins.username, 'boss'));
    expect(row?.lastLoginIp).toBe('192.0.2.10');
  });

  it('the access token lasts an hour; the refresh cookie rotates, and a spent one ends the session', async () => {
    const s = await signIn('boss', 'Boss12345');
    clock.advance(3600_000);
    expect((await me(s.headers)).statusCode).toBe(401);
    const first = await refresh(s.cookie);
    expect(first.statusCode).toBe(200);
    const next = first.cookies.find((c) => c.name === COOKIE)?.value as string;
    expect(next).not.toBe(s.cookie);
    const fresh = { authorization: `Bearer ${first.json().data.token}` };
    expect((await me(fresh)).statusCode).toBe(200);
    // The old cookie again: theft. The whole session ends, the new token included.
    expect((await refresh(s.cookie)).statusCode).toBe(401);
    expect((await me(fresh)).statusCode).toBe(401);
    expect((await refresh(next)).statusCode).toBe(401);
    superHeaders = (await signIn('boss', 'Boss12345')).headers;
  });

  it('a session ends 24 hours after sign-in however often it refreshes', async () => {
    let { cookie } = await signIn('boss', 'Boss12345');
    for (let h = 0; h < 3; h++) {
      clock.advance(7 * 3600_000);
      const r = await refresh(cookie);
      expect(r.statusCode).toBe(200);
      cookie = r.cookies.find((c) => c.name === COOKIE)?.value as string;
    }
    clock.advance(3 * 3600_000 + 1);
    expect((await refresh(cookie)).statusCode).toBe(401);
    superHeaders = (await signIn('boss', 'Boss12345')).headers;
  });

  it('sign-out ends the token and the cookie at once', async () => {
    const s = await signIn('boss', 'Boss12345');
    const out = await t.app.inject({
      method: 'POST',
      url: '/api/admin/auth/logout',
      headers: { ...s.headers, cookie: `${COOKIE}=${s.cookie}` },
    });
    expect(out.statusCode).toBe(200);
    expect((await me(s.headers)).statusCode).toBe(401);
    expect((await refresh(s.cookie)).statusCode).toBe(401);
  });

  it('a new administrator signs in with the one-time password and must change it first', async () => {
    const made = await call('POST', '/api/admin/admins', superHeaders, {
      username: 'fin.li',
      role: 'FINANCE',
    });
    expect(made.statusCode, made.body).toBe(200);
    const { password, admin } = made.json().data;
    expect(admin).toMatchObject({
      username: 'fin.li',
      role: 'FINANCE',
      mustChangePassword: true,
      status: 'ACTIVE',
    });
    expect(password).toMatch(/[A-Z]/);
    const s = await signIn('fin.li', password);
    expect(s.data.admin.mustChangePassword).toBe(true);
    expect((await call('GET', '/api/admin/balance/stats', s.headers)).statusCode).toBe(403);
    const other = await signIn('fin.li', password, '192.0.2.77');

    const change = (currentPassword: string, newPassword: string) =>
      call('POST', '/api/admin/auth/change-password', s.headers, { currentPassword, newPassword });
    expect((await change('Wrong1234', 'Fin123456')).json()).toMatchObject({
      code: '422',
      message: '当前密码错误',
    });
    expect((await change(password, 'weak')).statusCode).toBe(400);
    expect((await change(password, password)).statusCode).toBe(422);
    const done = await change(password, 'Fin123456');
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json().data.mustChangePassword).toBe(false);
    expect((await call('GET', '/api/admin/balance/stats', s.headers)).statusCode).toBe(200);
    // The other session ended; this one goes on.
    expect((await me(other.headers)).statusCode).toBe(401);
    expect((await refresh(other.cookie)).statusCode).toBe(401);
    expect((await signIn('fin.li', 'Fin123456')).data.admin.mustChangePassword).toBe(false);
  });

  it('reset password forces a change and ends sessions; disabling ends them at once; both are audited', async () => {
    const made = (
      await call('POST', '/api/admin/admins', superHeaders, { username: 'ops.wang', role: 'OPERATIONS' })
    ).json().data;
    const id = made.admin.id as number;
    const s = await signIn('ops.wang', made.password);
    const reset = await call('POST', `/api/admin/admins/${id}/reset-password`, superHeaders);
    expect(reset.statusCode).toBe(200);
    expect((await me(s.headers)).statusCode).toBe(401);
    const again = await signIn('ops.wang', reset.json().data.password);
    expect(again.data.admin.mustChangePassword).toBe(true);

    const sessions = await call('GET', `/api/admin/admins/${id}/sessions`, superHeaders);
    expect(sessions.json().data).toHaveLength(1);
    expect(sessions.json().data[0]).toMatchObject({ ip: '192.0.2.10', current: false });

    const disabled = await call('PUT', `/api/admin/admins/${id}`, superHeaders, { status: 'DISABLED' });
    expect(disabled.json().data).toMatchObject({ status: 'DISABLED', activeSessions: 0 });
    expect((await me(again.headers)).statusCode).toBe(401);
    expect((await refresh(again.cookie)).statusCode).toBe(401);
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/admin/auth/login',
      payload: { username: 'ops.wang', password: reset.json().data.password },
    });
    expect(login.statusCode).toBe(401);
    const actions = (
      await t.db
        .select()
        .from(auditLog)
        .where(eq(auditLog.target, `admin:${id}`))
    ).map((r) => r.action);
    expect(actions).toEqual(expect.arrayContaining(['admin.create', 'admin.password_reset', 'admin.update']));
  });

  it('ending one session from the list stops that token only', async () => {
    const a = await signIn('boss', 'Boss12345', '198.51.100.1');
    const b = await signIn('boss', 'Boss12345', '198.51.100.2');
    const list = (await call('GET', '/api/admin/auth/sessions', a.headers)).json().data as Array<{
      id: string;
      ip: string;
      current: boolean;
    }>;
    const bSession = list.find((x) => x.ip === '198.51.100.2');
    expect(list.find((x) => x.current)?.ip).toBe('198.51.100.1');
    expect((await call('DELETE', `/api/admin/auth/sessions/${bSession?.id}`, a.headers)).statusCode).toBe(
      200,
    );
    expect((await me(b.headers)).statusCode).toBe(401);
    expect((await me(a.headers)).statusCode).toBe(200);
    expect((await call('DELETE', `/api/admin/auth/sessions/${bSession?.id}`, a.headers)).statusCode).toBe(
      404,
    );
    expect((await call('DELETE', '/api/admin/auth/sessions/nothex', a.headers)).statusCode).toBe(400);
  });

  it('guards: tenant operators are 运营 or 只读 of a real tenant; no self-edit; the last super stays', async () => {
    const bad = await call('POST', '/api/admin/admins', superHeaders, {
      username: 'x.fin',
      role: 'FINANCE',
      tenantId: 1,
    });
    expect(bad.json()).toMatchObject({ code: '400' });
    expect(bad.json().message).toContain('租户管理员只能是运营或只读角色');
    const noTenant = await call('POST', '/api/admin/admins', superHeaders, {
      username: 'x.ops',
      role: 'OPERATIONS',
      tenantId: 999,
    });
    expect(noTenant.json()).toMatchObject({ code: '422', message: '租户不存在' });
    const dup = await call('POST', '/api/admin/admins', superHeaders, { username: 'boss', role: 'READONLY' });
    expect(dup.json()).toMatchObject({ code: '409', message: '用户名已存在' });
    const bossId = (await me(superHeaders)).json().data.id;
    expect(
      (await call('PUT', `/api/admin/admins/${bossId}`, superHeaders, { role: 'READONLY' })).statusCode,
    ).toBe(409);
    const other = (
      await call('POST', '/api/admin/admins', superHeaders, { username: 'second.super', role: 'SUPER' })
    ).json().data;
    const s2 = await signIn('second.super', other.password);
    await call('POST', '/api/admin/auth/change-password', s2.headers, {
      currentPassword: other.password,
      newPassword: 'Second123',
    });
    expect(
      (await call('PUT', `/api/admin/admins/${bossId}`, s2.headers, { role: 'READONLY' })).statusCode,
    ).toBe(200);
    const self = await call('PUT', `/api/admin/admins/${other.admin.id}`, s2.headers, { status: 'DISABLED' });
    expect(self.json()).toMatchObject({ code: '409', message: '不能修改自己的角色、租户或状态' });
    // (Two supers demoting each other at once: admins.postgres.test.ts.)
    await t.db.update(admins).set({ role: 'SUPER' }).where(eq(admins.id, bossId));
  });
});
