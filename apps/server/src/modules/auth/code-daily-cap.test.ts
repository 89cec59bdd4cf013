import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../../test/test-app.ts';

// CODE_DAILY_CAP_PER_IP: how many codes one address may ask for in a day (default 30).
describe('the daily cap of codes per address', () => {
  let t: Awaited<ReturnType<typeof createTestApp>>;
  beforeAll(async () => {
    t = await createTestApp({ demo: false, config: { CODE_DAILY_CAP_PER_IP: '2', RATE_LIMITS: 'off' } });
  });
  afterAll(() => t.close());

  const send = (phone: string, remoteAddress: string) =>
    t.app.inject({
      method: 'POST',
      url: '/api/auth/send-verification-code',
      payload: { phone, codeType: 'REGISTER' },
      remoteAddress,
    });

  it('refuses the code after the configured number from one address, and only from that one', async () => {
    expect((await send('13700000001', '198.51.100.7')).statusCode).toBe(200);
    expect((await send('13700000002', '198.51.100.7')).statusCode).toBe(200);
    const third = await send('13700000003', '198.51.100.7');
    expect(third.statusCode).toBe(429);
    expect(third.json().message).toBe('今日验证码发送次数已达上限，请明天再试');
    expect((await send('13700000003', '198.51.100.8')).statusCode).toBe(200);
  });

  it('is a setting with a range', async () => {
    const { testConfig } = await import('../../test/test-app.ts');
    expect(testConfig().CODE_DAILY_CAP_PER_IP).toBe(30);
    expect(() => testConfig({ CODE_DAILY_CAP_PER_IP: '0' })).toThrow(/CODE_DAILY_CAP_PER_IP/);
  });
});
