import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixedClock } from '../../app/clock.ts';
import { createTestApp } from '../../app/db/test-utils.ts';

type T = Awaited<ReturnType<typeof createTestApp>>;
const clock = fixedClock('2026-11-22T08:00:00Z');
let t: T;
let seq = 0;
const nextPhone = () => `1360000${String(++seq).padStart(4, '0')}`;
const PASSWORD = 'Passw0rdOK';

beforeAll(async () => {
  t = await createTestApp({ clock });
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
  it('moves a phone-named username along, so the old number can be registered again', async () => {
    const oldPhone = await register();
    const auth = await login(oldPhone, 'x');
    const newPhone = nextPhone();
    const res = await req(
      'POST',
      '/api/user/change-phone',
      { newPhone, code: await code(newPhone, 'CHANGE_PHONE') },
      auth,
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({ phone: newPhone, username: newPhone });
    await register(oldPhone);
    await login(oldPhone, 'y');
  });

  it('refuses a wrong code, a taken phone and the same phone', async () => {
    const phone = await register();
    const auth = await login(phone, 'x');
    const taken = await register();
    expect(
      (await req('POST', '/api/user/change-phone', { newPhone: taken, code: '123456' }, auth)).statusCode,
    ).toBe(409);
    expect(
      (await req('POST', '/api/user/change-phone', { newPhone: phone, code: '123456' }, auth)).statusCode,
    ).toBeGreaterThanOrEqual(400);
    const free = nextPhone();
    await code(free, 'CHANGE_PHONE');
    const wrong = await req('POST', '/api/user/change-phone', { newPhone: free, code: '000000' }, auth);
    expect(wrong.statusCode).toBe(400);
    expect((await req('GET', '/api/auth/me', undefined, auth)).json().data.phone).toBe(phone);
  });
});
