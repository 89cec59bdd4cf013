import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixedClock } from '../../platform/clock.ts';
import { createTestApp } from '../../test/test-app.ts';
import { auditLog } from '../audit/audit.tables.ts';
import { admins } from '../auth/auth.tables.ts';
import { hashPassword } from '../auth/index.ts';
import { codeAt, enrol } from './admin-totp.test-helpers.ts';

type T = Awaited<ReturnType<typeof createTestApp>>;
const clock = fixedClock('2026-11-26T03:00:10Z');
let t: T;
beforeAll(async () => {
  t = await createTestApp({ clock, demo: false });
  for (const [username, role] of [
    ['root', 'SUPER'],
    ['ops', 'OPERATIONS'],
  ] as const)
    await t.db.insert(admins).values({ username, passwordHash: await hashPassword('Pass12345'), role });
});
afterAll(() => t.close());

const login = (username: string, ip = '192.0.2.20') =>
  t.app.inject({
    method: 'POST',
    url: '/api/admin/auth/login',
    payload: { username, password: 'Pass12345' },
    remoteAddress: ip,
  });
const verify = (challenge: string, code: string, ip = '192.0.2.20') =>
  t.app.inject({
    method: 'POST',
    url: '/api/admin/auth/totp/verify',
    payload: { challenge, code },
    remoteAddress: ip,
  });
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const nextStep = () => clock.advance(30_000);

describe('two-factor sign-in (TOTP)', () => {
  let secret = '';
  let recovery: string[] = [];

  it('enrols with a QR URI and a confirming code; recovery codes come once', async () => {
    const headers = bearer((await login('root')).json().data.token);
    const started = await t.app.inject({
      method: 'POST',
      url: '/api/admin/auth/totp/enrol',
      headers,
      payload: {},
    });
    expect(started.json().data.uri).toMatch(/^otpauth:\/\/totp\/.*root\?.*secret=[A-Z2-7]+/);
    // A wrong first code leaves 2FA off.
    const wrong = await t.app.inject({
      method: 'POST',
      url: '/api/admin/auth/totp/confirm',
      headers,
      payload: { code: '000000' },
    });
    expect(wrong.json()).toMatchObject({ code: '422', message: '验证码错误' });
    expect((await t.app.inject({ url: '/api/admin/auth/me', headers })).json().data.totpEnabled).toBe(false);
    nextStep();
    const done = await enrol(t.app, headers, clock.now());
    secret = done.secret;
    recovery = done.recoveryCodes;
    expect(recovery).toHaveLength(10);
    expect(new Set(recovery).size).toBe(10);
    expect(recovery[0]).toMatch(/^[a-z0-9]{5}-[a-z0-9]{5}$/);
    const [row] = await t.db.select().from(admins).where(eq(admins.username, 'root'));
    // The secret is sealed at rest.
    expect(row?.totpSecret).not.toContain(secret);
    expect((await t.app.inject({ url: '/api/admin/auth/me', headers })).json().data.totpEnabled).toBe(true);
  });

  it('sign-in then needs the code: the password alone gives a challenge, not a token', async () => {
    nextStep();
    const first = (await login('root')).json().data;
    expect(first).toEqual({ mfaRequired: true, challenge: expect.any(String) });
    expect(first.token).toBeUndefined();
    // The challenge is not an access token.
    expect(
      (await t.app.inject({ url: '/api/admin/auth/me', headers: bearer(first.challenge) })).statusCode,
    ).toBe(401);
    const ok = await verify(first.challenge, codeAt(secret, clock.now()));
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().data.admin).toMatchObject({ username: 'root', totpEnabled: true });
    expect(ok.cookies.find((c) => c.name === 'gpu_art')).toBeTruthy();
    // The same code again (a replay within its 30 s) is refused.
    const again = await verify((await login('root')).json().data.challenge, codeAt(secret, clock.now()));
    expect(again.json()).toMatchObject({ code: '401', message: '验证码错误' });
  });

  it('a recovery code signs in once', async () => {
    const code = recovery[0] as string;
    const ok = await verify((await login('root')).json().data.challenge, code.toUpperCase());
    expect(ok.statusCode).toBe(200);
    expect((await verify((await login('root')).json().data.challenge, code)).statusCode).toBe(401);
  });

  it('wrong codes are limited like passwords (5 from one address), and audited', async () => {
    const challenge = (await login('root', '203.0.113.9')).json().data.challenge;
    for (let i = 0; i < 5; i++)
      expect((await verify(challenge, '123456', '203.0.113.9')).statusCode).toBe(401);
    nextStep();
    expect((await verify(challenge, codeAt(secret, clock.now()), '203.0.113.9')).statusCode).toBe(429);
    // The owner elsewhere is not locked out.
    expect(
      (await verify((await login('root')).json().data.challenge, codeAt(secret, clock.now()))).statusCode,
    ).toBe(200);
    const failed = await t.db.select().from(auditLog).where(eq(auditLog.action, 'admin.login_failed'));
    expect(
      failed.filter((r) => (r.detail as { step?: string } | null)?.step === '2fa').length,
    ).toBeGreaterThanOrEqual(5);
  });

  it('an expired or forged challenge sends the admin back to the password', async () => {
    const challenge = (await login('root')).json().data.challenge as string;
    clock.advance(301_000);
    expect((await verify(challenge, codeAt(secret, clock.now()))).json()).toMatchObject({
      message: '验证已过期，请重新登录',
    });
    expect((await verify(`${challenge.slice(0, -2)}xx`, '123456')).statusCode).toBe(401);
    expect((await verify('x', 'abc')).statusCode).toBe(400);
  });

  it('a super administrator keeps 2FA once on; others may turn it off with the password', async () => {
    nextStep();
    const root = bearer(
      (await verify((await login('root')).json().data.challenge, codeAt(secret, clock.now()))).json().data
        .token,
    );
    const off = await t.app.inject({
      method: 'POST',
      url: '/api/admin/auth/totp/disable',
      headers: root,
      payload: { password: 'Pass12345' },
    });
    expect(off.json()).toMatchObject({ code: '403', message: '超级管理员开启两步验证后不能关闭' });

    const ops = bearer((await login('ops')).json().data.token);
    nextStep();
    await enrol(t.app, ops, clock.now());
    const wrongPw = await t.app.inject({
      method: 'POST',
      url: '/api/admin/auth/totp/disable',
      headers: ops,
      payload: { password: 'Nope12345' },
    });
    expect(wrongPw.json()).toMatchObject({ code: '422', message: '当前密码错误' });
    const ok = await t.app.inject({
      method: 'POST',
      url: '/api/admin/auth/totp/disable',
      headers: ops,
      payload: { password: 'Pass12345' },
    });
    expect(ok.statusCode).toBe(200);
    expect((await login('ops')).json().data.token).toEqual(expect.any(String));
  });

  it('the super administrator’s rule makes a role enrol before anything else', async () => {
    nextStep();
    const root = bearer(
      (await verify((await login('root')).json().data.challenge, codeAt(secret, clock.now()))).json().data
        .token,
    );
    const policy = { SUPER: true, OPERATIONS: true, FINANCE: false, READONLY: false };
    expect(
      (
        await t.app.inject({
          method: 'PUT',
          url: '/api/admin/admins/totp-policy',
          headers: root,
          payload: policy,
        })
      ).json().data,
    ).toEqual(policy);
    const ops = (await login('ops')).json().data;
    expect(ops.admin.mustEnrolTotp).toBe(true);
    const blocked = await t.app.inject({ url: '/api/admin/hosts', headers: bearer(ops.token) });
    expect(blocked.json()).toMatchObject({ code: '403', message: '请先开启两步验证后再继续操作' });
    nextStep();
    await enrol(t.app, bearer(ops.token), clock.now());
    expect((await t.app.inject({ url: '/api/admin/hosts', headers: bearer(ops.token) })).statusCode).toBe(
      200,
    );
    const off = await t.app.inject({
      method: 'POST',
      url: '/api/admin/auth/totp/disable',
      headers: bearer(ops.token),
      payload: { password: 'Pass12345' },
    });
    expect(off.json().message).toBe('当前角色必须使用两步验证，不能关闭');
    // A lost phone: the super administrator resets it; the rule asks for a new enrolment.
    const reset = await t.app.inject({
      method: 'POST',
      url: `/api/admin/admins/${ops.admin.id}/reset-totp`,
      headers: root,
    });
    expect(reset.statusCode).toBe(200);
    expect((await login('ops')).json().data.admin).toMatchObject({ totpEnabled: false, mustEnrolTotp: true });
  });

  it('new recovery codes need a current code and replace the old ones', async () => {
    nextStep();
    const root = bearer(
      (await verify((await login('root')).json().data.challenge, codeAt(secret, clock.now()))).json().data
        .token,
    );
    nextStep();
    const fresh = await t.app.inject({
      method: 'POST',
      url: '/api/admin/auth/totp/recovery-codes',
      headers: root,
      payload: { code: codeAt(secret, clock.now()) },
    });
    expect(fresh.statusCode, fresh.body).toBe(200);
    const codes = fresh.json().data.recoveryCodes as string[];
    expect(
      (await verify((await login('root')).json().data.challenge, recovery[1] as string)).statusCode,
    ).toBe(401);
    expect((await verify((await login('root')).json().data.challenge, codes[0] as string)).statusCode).toBe(
      200,
    );
  });
});
