import { authMessages } from '@gpu/shared';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixedClock } from '../../platform/clock.ts';
import { createTestApp } from '../../test/test-app.ts';
import { auditLog } from '../audit/audit.tables.ts';
import { users, verificationCodes } from './auth.tables.ts';
import { hashPassword } from './passwords.ts';
import { REFRESH_COOKIE } from './refresh-cookie.ts';

type T = Awaited<ReturnType<typeof createTestApp>>;
const clock = fixedClock('2026-11-22T08:00:00Z');
let t: T;
let phoneSeq = 0;
const nextPhone = () => `1370000${String(++phoneSeq).padStart(4, '0')}`;
const PASSWORD = 'Passw0rdOK';

beforeAll(async () => {
  t = await createTestApp({ clock });
});
afterAll(() => t.close());

const post = (url: string, payload: unknown, headers: Record<string, string> = {}) =>
  t.app.inject({
    method: 'POST',
    url,
    payload: payload as object,
    headers: { 'x-tenant-host': 'localhost', ...headers },
  });
const get = (url: string, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'GET', url, headers: { 'x-tenant-host': 'localhost', ...headers } });
const cookieOf = (res: Awaited<ReturnType<typeof post>>) =>
  res.cookies.find((c) => c.name === REFRESH_COOKIE) as
    | { value: string; httpOnly?: boolean; sameSite?: string; path?: string; expires?: Date }
    | undefined;

async function sendCode(phone: string, codeType = 'REGISTER', host = 'localhost') {
  const res = await post('/api/auth/send-verification-code', { phone, codeType }, { 'x-tenant-host': host });
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

describe('registration', () => {
  it('registers with the SMS code, creates a zero balance and a session after login', async () => {
    const phone = nextPhone();
    expect((await get(`/api/auth/check-phone?phone=${phone}`)).json().data).toEqual({ available: true });
    const code = await sendCode(phone);
    expect(code).toMatch(/^\d{6}$/);
    const [stored] = await t.db.select().from(verificationCodes).where(eq(verificationCodes.phone, phone));
    expect(stored?.codeHash).not.toContain(code);

    const reg = await post('/api/auth/register', {
      phone,
      verificationCode: code,
      password: PASSWORD,
      confirmPassword: PASSWORD,
      salesName: '李四',
      salesPhone: '13900001111',
    });
    expect(reg.json()).toMatchObject({
      success: true,
      message: '注册成功，请登录',
      data: { phone, salesName: '李四' },
    });
    expect((await get(`/api/auth/check-phone?phone=${phone}`)).json().data).toEqual({ available: false });

    const res = await login(phone);
    expect(res.statusCode).toBe(200);
    const { accessToken, user } = res.json().data;
    expect(user.username).toBe(phone);
    expect(res.json().message).toContain(user.username);
    const auth = { authorization: `Bearer ${accessToken}` };
    expect((await get('/api/user/balance', auth)).json().data).toEqual({ available: 0, frozen: 0, total: 0 });
    expect((await get('/api/auth/me', auth)).json().data.phone).toBe(phone);
    const [row] = await t.db.select().from(users).where(eq(users.phone, phone));
    expect(row?.passwordHash.startsWith('$argon2id$v=19$m=19456,p=1,t=2$')).toBe(true);
  });

  it('refuses a taken phone, a wrong code, and rule breaches with the SPEC messages', async () => {
    const phone = await registerUser();
    const taken = await post('/api/auth/send-verification-code', { phone, codeType: 'REGISTER' });
    expect(taken.statusCode).toBe(409);

    const other = nextPhone();
    const code = await sendCode(other);
    const wrong = await post('/api/auth/register', {
      phone: other,
      verificationCode: code === '000000' ? '111111' : '000000',
      password: PASSWORD,
      confirmPassword: PASSWORD,
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().message).toBe('验证码错误');

    const cases: [Record<string, unknown>, string][] = [
      [{ phone: '12345' }, authMessages.phoneInvalid],
      [{ password: 'abcdefg1', confirmPassword: 'abcdefg1' }, authMessages.passwordComplexity],
      [{ confirmPassword: 'Different1' }, authMessages.confirmMismatch],
      [{ verificationCode: '12a456' }, authMessages.codeInvalid],
      [{ salesPhone: '123' }, authMessages.salesPhoneInvalid],
    ];
    for (const [patch, message] of cases) {
      const res = await post('/api/auth/register', {
        phone: other,
        verificationCode: code,
        password: PASSWORD,
        confirmPassword: PASSWORD,
        ...patch,
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toContain(message);
    }
  });

  it('keeps phones separate per tenant', async () => {
    const phone = await registerUser(nextPhone(), 'localhost');
    expect(
      (await get(`/api/auth/check-phone?phone=${phone}`, { 'x-tenant-host': '127.0.0.1' })).json().data
        .available,
    ).toBe(true);
    await registerUser(phone, '127.0.0.1');
    expect((await login(phone, PASSWORD, false, '127.0.0.1')).statusCode).toBe(200);
    // A user token is only good on its own tenant.
    const token = (await login(phone)).json().data.accessToken;
    expect(
      (await get('/api/auth/me', { authorization: `Bearer ${token}`, 'x-tenant-host': '127.0.0.1' }))
        .statusCode,
    ).toBe(401);
  });
});

describe('verification codes', () => {
  it('allows one send per 60 s and caps a phone per day', async () => {
    const phone = nextPhone();
    expect((await post('/api/auth/send-verification-code', { phone })).statusCode).toBe(200);
    clock.advance(30_000);
    const again = await post('/api/auth/send-verification-code', { phone });
    expect(again.statusCode).toBe(429);
    expect(again.json().message).toContain('30秒');
    for (let i = 1; i < 10; i++) {
      clock.advance(60_000);
      expect((await post('/api/auth/send-verification-code', { phone })).statusCode).toBe(200);
    }
    clock.advance(60_000);
    const capped = await post('/api/auth/send-verification-code', { phone });
    expect(capped.statusCode).toBe(429);
    expect(capped.json().message).toContain('今日');
    clock.advance(24 * 3600_000);
    expect((await post('/api/auth/send-verification-code', { phone })).statusCode).toBe(200);
    clock.advance(61_000);
  });

  it('burns a code after 5 wrong tries and expires it after 5 minutes', async () => {
    const phone = nextPhone();
    const code = await sendCode(phone);
    const bad = code === '999999' ? '888888' : '999999';
    const attempt = (c: string) =>
      post('/api/auth/register', {
        phone,
        verificationCode: c,
        password: PASSWORD,
        confirmPassword: PASSWORD,
      });
    for (let i = 0; i < 4; i++) expect((await attempt(bad)).json().message).toBe('验证码错误');
    expect((await attempt(bad)).json().message).toContain('次数过多');
    expect((await attempt(code)).json().message).toContain('次数过多');

    const code2 = await sendCode(phone);
    clock.advance(5 * 60_000);
    expect((await attempt(code2)).json().message).toContain('过期');
  });
});

describe('login', () => {
  it('answers unknown phones and wrong passwords alike, and locks an account after 5 failures', async () => {
    const phone = await registerUser();
    const unknown = await login(nextPhone(), 'Whatever1');
    const wrong = await login(phone, 'Wrong0pass');
    expect(unknown.statusCode).toBe(401);
    expect(wrong.statusCode).toBe(401);
    expect(unknown.json()).toEqual(wrong.json());
    for (let i = 0; i < 4; i++) await login(phone, 'Wrong0pass');
    const locked = await login(phone);
    expect(locked.statusCode).toBe(429);
    expect(locked.json().message).toContain('15分钟');
    clock.advance(15 * 60_000);
    expect((await login(phone)).statusCode).toBe(200);
  });

  it('refuses a disabled user at the next request', async () => {
    const phone = await registerUser();
    const token = (await login(phone)).json().data.accessToken;
    const auth = { authorization: `Bearer ${token}` };
    expect((await get('/api/auth/me', auth)).statusCode).toBe(200);
    await t.db.update(users).set({ status: 'DISABLED' }).where(eq(users.phone, phone));
    expect((await get('/api/auth/me', auth)).statusCode).toBe(401);
    expect((await login(phone)).json().message).toBe('账号已被禁用，请联系客服');
  });
});

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

describe('password reset and change', () => {
  it('resets with a code, revokes old tokens and refresh tokens, and logs in with the new password', async () => {
    const phone = await registerUser();
    const res = await login(phone);
    const oldAccess = { authorization: `Bearer ${res.json().data.accessToken}` };
    const rt = cookieOf(res)?.value as string;
    clock.advance(1_000);

    const sent = await post('/api/auth/send-reset-password-code', { phone });
    const code = sent.json().data.code as string;
    const reset = await post('/api/auth/reset-password', { phone, code, newPassword: 'NewPass99' });
    expect(reset.statusCode).toBe(200);
    expect((await get('/api/auth/me', oldAccess)).statusCode).toBe(401);
    expect((await post('/api/auth/refresh', {}, { cookie: `${REFRESH_COOKIE}=${rt}` })).statusCode).toBe(401);
    expect((await login(phone)).statusCode).toBe(401);
    expect((await login(phone, 'NewPass99')).statusCode).toBe(200);
    clock.advance(61_000);
  });

  it('answers reset-code requests alike for unknown phones and sends them nothing', async () => {
    const known = await post('/api/auth/send-reset-password-code', { phone: await registerUser() });
    const unknown = await post('/api/auth/send-reset-password-code', { phone: nextPhone() });
    expect(unknown.statusCode).toBe(known.statusCode);
    expect(unknown.json().message).toBe(known.json().message);
    const fail = await post('/api/auth/reset-password', {
      phone: nextPhone(),
      code: '123456',
      newPassword: 'Abcdef12',
    });
    expect(fail.statusCode).toBe(400);
    clock.advance(61_000);
  });

  it('enforces the 6–16 reset rule', async () => {
    const res = await post('/api/auth/reset-password', {
      phone: nextPhone(),
      code: '123456',
      newPassword: 'x'.repeat(17),
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toContain(authMessages.resetPasswordLength);
  });

  it('refuses a reset password that registration would refuse (111111)', async () => {
    const phone = await registerUser();
    const code = (await post('/api/auth/send-reset-password-code', { phone })).json().data.code as string;
    clock.advance(61_000);
    for (const [newPassword, message] of [
      ['111111', authMessages.passwordComplexity],
      ['abcdefg1', authMessages.passwordComplexity],
      ['Abc 1234', authMessages.passwordCharset],
    ]) {
      const res = await post('/api/auth/reset-password', { phone, code, newPassword });
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toContain(message);
    }
    // The refused tries left the code alone; a well-formed password still resets with it.
    expect(
      (await post('/api/auth/reset-password', { phone, code, newPassword: 'Good1234' })).statusCode,
    ).toBe(200);
    expect((await login(phone, 'Good1234')).statusCode).toBe(200);
  });

  it('changes the password with the old one and keeps this session only', async () => {
    const phone = await registerUser();
    const token = (await login(phone)).json().data.accessToken;
    clock.advance(1_000);
    const wrong = await post(
      '/api/auth/change-password',
      { oldPassword: 'Nope12345', newPassword: 'Changed99' },
      { authorization: `Bearer ${token}` },
    );
    expect(wrong.json().message).toBe('原密码错误');
    const ok = await post(
      '/api/auth/change-password',
      { oldPassword: PASSWORD, newPassword: 'Changed99' },
      { authorization: `Bearer ${token}` },
    );
    expect(ok.statusCode).toBe(200);
    expect((await get('/api/auth/me', { authorization: `Bearer ${token}` })).statusCode).toBe(401);
    expect(
      (await get('/api/auth/me', { authorization: `Bearer ${ok.json().data.accessToken}` })).statusCode,
    ).toBe(200);
  });

  it('locks change-password after 5 wrong old passwords for 15 minutes, in Chinese', async () => {
    const phone = await registerUser();
    const auth = { authorization: `Bearer ${(await login(phone)).json().data.accessToken}` };
    const change = (oldPassword: string) =>
      post('/api/auth/change-password', { oldPassword, newPassword: 'Changed99' }, auth);
    for (let i = 0; i < 5; i++) expect((await change(`Wrong${i}pass`)).json().message).toBe('原密码错误');
    // Even the right password waits now: no sixth guess is checked.
    const locked = await change(PASSWORD);
    expect(locked.statusCode).toBe(429);
    expect(locked.json().message).toBe('密码错误次数过多，请15分钟后再试');
    // Another session of the same account shares the count (per account, not per token).
    const other = { authorization: `Bearer ${(await login(phone)).json().data.accessToken}` };
    const fromOther = await post(
      '/api/auth/change-password',
      { oldPassword: PASSWORD, newPassword: 'Changed99' },
      other,
    );
    expect(fromOther.statusCode).toBe(429);
    // Sign-in is a separate count: the owner is not locked out of signing in.
    expect((await login(phone)).statusCode).toBe(200);
    clock.advance(15 * 60_000);
    expect((await change(PASSWORD)).statusCode).toBe(200);
  });

  it('changes the phone with the password and a code sent to the new one', async () => {
    const phone = await registerUser();
    const auth = { authorization: `Bearer ${(await login(phone)).json().data.accessToken}` };
    const newPhone = nextPhone();
    const code = await sendCode(newPhone, 'CHANGE_PHONE');
    const res = await post('/api/user/change-phone', { password: PASSWORD, newPhone, code }, auth);
    expect(res.json().data.user.phone).toBe(newPhone);
    expect((await login(newPhone)).statusCode).toBe(200);
  });
});

describe('checks', () => {
  it('checks usernames and emails', async () => {
    const phone = await registerUser();
    expect((await get(`/api/auth/check-username?username=${phone}`)).json().data.available).toBe(false);
    expect((await get('/api/auth/check-username?username=free-name')).json().data.available).toBe(true);
    expect((await get('/api/auth/check-email?email=a@b.cn')).json().data.available).toBe(true);
    expect((await get('/api/auth/check-email?email=nope')).statusCode).toBe(400);
  });
});

describe('admins', () => {
  beforeAll(async () => {
    await t.app.deps.db.insert((await import('./auth.tables.ts')).admins).values({
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
      data: { admin: { username: 'boss', roles: ['ADMIN'] } },
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
