import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, midMinuteClock } from '../../test/test-app.ts';

describe('per-IP rate limits', () => {
  let t: Awaited<ReturnType<typeof createTestApp>>;
  beforeAll(async () => {
    // The 22 attempts once straddled a minute's end and the last counted in a fresh window (CI).
    t = await createTestApp({ demo: false, config: { RATE_LIMITS: 'on' }, clock: midMinuteClock() });
  });
  afterAll(() => t.close());

  it('limits login attempts from one address and says how long to wait', async () => {
    const attempt = () =>
      t.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { phone: '13800000000', password: 'Whatever1' },
        remoteAddress: '203.0.113.9',
      });
    const codes: number[] = [];
    for (let i = 0; i < 21; i++) codes.push((await attempt()).statusCode);
    // The per-account limit (5 failures) answers 429 first; the per-IP one caps every address at 20 a minute.
    expect(codes.filter((c) => c === 401)).toHaveLength(5);
    const last = await attempt();
    expect(last.statusCode).toBe(429);
    expect(last.json().message).toMatch(/请求过于频繁，请\d+秒后再试/);
    const other = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { phone: '13800000001', password: 'Whatever1' },
      remoteAddress: '203.0.113.10',
    });
    expect(other.statusCode).toBe(401);
  });

  it('limits change-password attempts from one address, across accounts', async () => {
    const users = await Promise.all([1, 2, 3].map(() => t.createUser()));
    const attempt = (headers: Record<string, string>) =>
      t.app.inject({
        method: 'POST',
        url: '/api/auth/change-password',
        payload: { oldPassword: 'Wrong1234', newPassword: 'Changed99' },
        headers,
        remoteAddress: '203.0.113.20',
      });
    const codes: number[] = [];
    // Four wrong guesses per account stay under the per-account lock; the address hits its cap.
    for (const u of users) for (let i = 0; i < 4; i++) codes.push((await attempt(u.headers)).statusCode);
    expect(codes.slice(0, 10).every((c) => c === 400)).toBe(true);
    expect(codes.slice(10)).toEqual([429, 429]);
    const last = await attempt(users[0]?.headers ?? {});
    expect(last.json().message).toMatch(/请求过于频繁，请\d+秒后再试/);
  });
});
