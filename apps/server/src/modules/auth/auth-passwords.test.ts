import { authMessages } from '@gpu/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixedClock } from '../../platform/clock.ts';
import { createTestApp } from '../../test/test-app.ts';
import { authRequests, PASSWORD, type T } from './auth.test-helpers.ts';
import { REFRESH_COOKIE } from './refresh-cookie.ts';

const clock = fixedClock('2026-11-22T08:00:00Z');
let t: T;

beforeAll(async () => {
  t = await createTestApp({ clock });
});
afterAll(() => t.close());

const { nextPhone, post, get, cookieOf, sendCode, registerUser, login } = authRequests(() => t, clock);

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
