import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixedClock } from '../../platform/clock.ts';
import { createTestApp } from '../../test/test-app.ts';
import type { SmsDriver, SmsNotice } from '../sms/drivers/sms-driver.ts';
import { REFRESH_COOKIE } from './refresh-cookie.ts';

type T = Awaited<ReturnType<typeof createTestApp>>;
const clock = fixedClock('2026-11-22T08:00:00Z');
let t: T;
let seq = 0;
const nextPhone = () => `1360000${String(++seq).padStart(4, '0')}`;
const PASSWORD = 'Passw0rdOK';

/** The console provider (so answers reveal codes), recording what it sends. */
const sent: { phone: string; code?: string; notice?: SmsNotice }[] = [];
let noticeFails = false;
const sms: SmsDriver = {
  kind: 'console',
  async send({ phone, code }) {
    sent.push({ phone, code });
  },
  async sendNotice({ phone, notice }) {
    if (noticeFails) throw new Error('gateway down');
    sent.push({ phone, notice });
  },
};

beforeAll(async () => {
  t = await createTestApp({ clock, sms });
});
afterAll(() => t.close());

const req = (method: 'GET' | 'POST', url: string, payload?: object, headers: Record<string, string> = {}) =>
  t.app.inject({ method, url, payload, headers: { 'x-tenant-host': 'localhost', ...headers } });

async function code(phone: string, codeType: string) {
  const res = await req('POST', '/api/auth/send-verification-code', { phone, codeType });
  expect(res.statusCode, res.body).toBe(200);
  clock.advance(61_000);
  return res.json().data.code as string;
}
async function register(phone = nextPhone()) {
  const verificationCode = await code(phone, 'REGISTER');
  const res = await req('POST', '/api/auth/register', {
    phone,
    verificationCode,
    password: PASSWORD,
    confirmPassword: PASSWORD,
  });
  expect(res.statusCode, res.body).toBe(200);
  return phone;
}
const login = async (phone: string, ua: string, password = PASSWORD) => {
  const res = await req(
    'POST',
    '/api/auth/login',
    { phone, password, rememberMe: false },
    { 'user-agent': ua },
  );
  expect(res.statusCode, res.body).toBe(200);
  return { authorization: `Bearer ${res.json().data.accessToken}` };
};

describe('recent sign-ins', () => {
  it('records time, address and device of each sign-in, newest first, marking this one', async () => {
    const phone = await register();
    await login(phone, 'Mozilla/5.0 (iPhone) Safari');
    clock.advance(5_000);
    const auth = await login(phone, 'Mozilla/5.0 (Windows NT 10.0) Chrome/120');
    const res = await req('GET', '/api/user/sign-ins', undefined, auth);
    expect(res.statusCode, res.body).toBe(200);
    const list = res.json().data;
    expect(list).toHaveLength(2);
    expect(list[0]).toMatchObject({
      device: 'Mozilla/5.0 (Windows NT 10.0) Chrome/120',
      current: true,
      active: true,
    });
    expect(list[1]).toMatchObject({ device: 'Mozilla/5.0 (iPhone) Safari', current: false, active: true });
    expect(list[0].ip).toBe('127.0.0.1');
    expect(new Date(list[0].time).getTime()).toBeGreaterThan(new Date(list[1].time).getTime());
    expect((await req('GET', '/api/user/sign-ins')).statusCode).toBe(401);
  });

  it('signs out the other sessions on a password change and lists them as ended', async () => {
    const phone = await register();
    const other = await login(phone, 'phone-browser');
    const mine = await login(phone, 'desk-browser');
    const bad = await req(
      'POST',
      '/api/auth/change-password',
      { oldPassword: 'Wrong1234', newPassword: 'New12345' },
      mine,
    );
    expect(bad.statusCode).toBeGreaterThanOrEqual(400);
    expect((await req('GET', '/api/auth/me', undefined, other)).statusCode).toBe(200);
    clock.advance(1_000);
    const ok = await req(
      'POST',
      '/api/auth/change-password',
      { oldPassword: PASSWORD, newPassword: 'New12345' },
      { ...mine, 'user-agent': 'desk-browser' },
    );
    expect(ok.statusCode, ok.body).toBe(200);
    expect((await req('GET', '/api/auth/me', undefined, other)).statusCode).toBe(401);
    const fresh = { authorization: `Bearer ${ok.json().data.accessToken}` };
    const list = (await req('GET', '/api/user/sign-ins', undefined, fresh)).json().data;
    expect(list.map((s: { active: boolean }) => s.active)).toEqual([true, false, false]);
    expect(list[0]).toMatchObject({ current: true, device: 'desk-browser' });
  });
});

describe('change phone', () => {
  const changePhone = (body: object, headers: Record<string, string>) =>
    req('POST', '/api/user/change-phone', body, headers);

  it('needs the current password and a code sent to the new phone; tells the old phone; ends other sessions', async () => {
    const oldPhone = await register();
    const other = await login(oldPhone, 'phone-browser');
    const otherRefresh = (
      await req('POST', '/api/auth/login', { phone: oldPhone, password: PASSWORD, rememberMe: true })
    ).cookies.find((c) => c.name === REFRESH_COOKIE)?.value;
    const mine = await login(oldPhone, 'desk-browser');
    const newPhone = nextPhone();
    const newCode = await code(newPhone, 'CHANGE_PHONE');
    expect(sent.at(-1)).toEqual({ phone: newPhone, code: newCode });

    const noPassword = await changePhone({ newPhone, code: newCode }, mine);
    expect(noPassword.statusCode).toBe(400);
    expect(noPassword.json().message).toContain('请输入密码');
    const wrong = await changePhone({ password: 'Wrong1234', newPhone, code: newCode }, mine);
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().message).toBe('当前密码错误');
    expect((await req('GET', '/api/auth/me', undefined, mine)).json().data.phone).toBe(oldPhone);

    clock.advance(1_000);
    // The wrong password left the code alone.
    const ok = await changePhone(
      { password: PASSWORD, newPhone, code: newCode },
      { ...mine, 'user-agent': 'desk-browser' },
    );
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().message).toBe('手机号已更换');
    expect(ok.json().data.user).toMatchObject({ phone: newPhone, username: newPhone });
    expect(ok.cookies.find((c) => c.name === REFRESH_COOKIE)?.value).toBeTruthy();

    // The old phone hears of it, without any code.
    const notice = sent.find((m) => m.phone === oldPhone && m.notice);
    expect(notice).toEqual({ phone: oldPhone, notice: { kind: 'PHONE_CHANGED', newPhone } });

    // Every other session ends, the refresh cookies too; this browser goes on with its fresh token.
    expect((await req('GET', '/api/auth/me', undefined, other)).statusCode).toBe(401);
    expect((await req('GET', '/api/auth/me', undefined, mine)).statusCode).toBe(401);
    const refreshed = await req('POST', '/api/auth/refresh', undefined, {
      cookie: `${REFRESH_COOKIE}=${otherRefresh}`,
    });
    expect(refreshed.statusCode).toBe(401);
    const fresh = { authorization: `Bearer ${ok.json().data.accessToken}` };
    expect((await req('GET', '/api/auth/me', undefined, fresh)).json().data.phone).toBe(newPhone);
    const list = (await req('GET', '/api/user/sign-ins', undefined, fresh)).json().data;
    expect(list[0]).toMatchObject({ current: true, active: true, device: 'desk-browser' });
    expect(list.slice(1).every((s: { active: boolean }) => !s.active)).toBe(true);
  });

  it('moves a phone-named username along, so the old number can be registered again', async () => {
    const oldPhone = await register();
    const auth = await login(oldPhone, 'x');
    const newPhone = nextPhone();
    const res = await changePhone(
      { password: PASSWORD, newPhone, code: await code(newPhone, 'CHANGE_PHONE') },
      auth,
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.user).toMatchObject({ phone: newPhone, username: newPhone });
    await register(oldPhone);
    await login(oldPhone, 'y');
  });

  it('refuses a wrong code, a taken phone and the same phone', async () => {
    const phone = await register();
    const auth = await login(phone, 'x');
    const taken = await register();
    const body = { password: PASSWORD, code: '123456' };
    expect((await changePhone({ ...body, newPhone: taken }, auth)).statusCode).toBe(409);
    expect((await changePhone({ ...body, newPhone: phone }, auth)).statusCode).toBeGreaterThanOrEqual(400);
    const free = nextPhone();
    await code(free, 'CHANGE_PHONE');
    const wrong = await changePhone({ ...body, newPhone: free, code: '000000' }, auth);
    expect(wrong.statusCode).toBe(400);
    expect((await req('GET', '/api/auth/me', undefined, auth)).json().data.phone).toBe(phone);
  });

  it('counts wrong passwords with change-password: 5 in all lock both for 15 minutes', async () => {
    const phone = await register();
    const auth = await login(phone, 'x');
    const newPhone = nextPhone();
    const newCode = await code(newPhone, 'CHANGE_PHONE');
    for (let i = 0; i < 3; i++)
      expect(
        (await changePhone({ password: `Wrong${i}abc`, newPhone, code: newCode }, auth)).statusCode,
      ).toBe(400);
    for (let i = 0; i < 2; i++) {
      const res = await req(
        'POST',
        '/api/auth/change-password',
        { oldPassword: `Wrong${i}xyz`, newPassword: 'New12345' },
        auth,
      );
      expect(res.statusCode).toBe(400);
    }
    const locked = await changePhone({ password: PASSWORD, newPhone, code: newCode }, auth);
    expect(locked.statusCode).toBe(429);
    expect(locked.json().message).toBe('密码错误次数过多，请15分钟后再试');
  });

  it('still changes the phone when the notice to the old one cannot be sent', async () => {
    const phone = await register();
    const auth = await login(phone, 'x');
    const newPhone = nextPhone();
    const newCode = await code(newPhone, 'CHANGE_PHONE');
    noticeFails = true;
    try {
      const res = await changePhone({ password: PASSWORD, newPhone, code: newCode }, auth);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().data.user.phone).toBe(newPhone);
    } finally {
      noticeFails = false;
    }
  });
});
