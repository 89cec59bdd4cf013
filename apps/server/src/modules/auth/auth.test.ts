import { authMessages } from '@gpu/shared';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixedClock } from '../../platform/clock.ts';
import { createTestApp } from '../../test/test-app.ts';
import { users, verificationCodes } from './auth.tables.ts';
import { authRequests, PASSWORD, type T } from './auth.test-helpers.ts';

const clock = fixedClock('2026-11-22T08:00:00Z');
let t: T;

beforeAll(async () => {
  t = await createTestApp({ clock });
});
afterAll(() => t.close());

const { nextPhone, post, get, sendCode, registerUser, login } = authRequests(() => t, clock);

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

describe('checks', () => {
  it('checks usernames and emails', async () => {
    const phone = await registerUser();
    expect((await get(`/api/auth/check-username?username=${phone}`)).json().data.available).toBe(false);
    expect((await get('/api/auth/check-username?username=free-name')).json().data.available).toBe(true);
    expect((await get('/api/auth/check-email?email=a@b.cn')).json().data.available).toBe(true);
    expect((await get('/api/auth/check-email?email=nope')).statusCode).toBe(400);
  });
});
