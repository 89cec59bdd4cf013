import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixedClock } from '../../app/clock.ts';
import { createTestApp } from '../../app/db/test-utils.ts';

describe('per-IP rate limits', () => {
  let t: Awaited<ReturnType<typeof createTestApp>>;
  beforeAll(async () => {
    // Windows are fixed minutes: on the real clock the 22 attempts could straddle a minute's end,
    // and the last then counts in a fresh window (CI, once). The middle of this minute, held.
    const minute = Math.floor(Date.now() / 60_000) * 60_000;
    t = await createTestApp({
      demo: false,
      config: { RATE_LIMITS: 'on' },
      clock: fixedClock(new Date(minute + 30_000)),
    });
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
});
