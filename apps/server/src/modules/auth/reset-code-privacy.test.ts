import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { fixedClock } from '../../platform/clock.ts';
import { createTestApp } from '../../test/test-app.ts';
import type { SmsDriver } from '../sms/drivers/sms-driver.ts';

// DESIGN §9: code sending and reset answer alike whether or not the phone is registered, in
// status, text and time. A real provider (not the console one) so answers carry no code.

type T = Awaited<ReturnType<typeof createTestApp>>;
const clock = fixedClock('2026-11-22T08:00:00Z');
let t: T;
const SMS_LATENCY_MS = 1_000;
const delivered: { phone: string; code: string }[] = [];
let smsFails = false;
const sms: SmsDriver = {
  kind: 'aliyun',
  async send({ phone, code }) {
    await new Promise((r) => setTimeout(r, SMS_LATENCY_MS));
    if (smsFails) throw new Error('gateway down');
    delivered.push({ phone, code });
  },
  async sendNotice() {},
};

beforeAll(async () => {
  t = await createTestApp({ clock, sms });
});
afterAll(() => t.close());

const post = (url: string, payload: object) =>
  t.app.inject({ method: 'POST', url, payload, headers: { 'x-tenant-host': 'localhost' } });
const askCode = async (phone: string) => {
  const started = performance.now();
  const res = await post('/api/auth/send-reset-password-code', { phone });
  return { res, ms: performance.now() - started };
};

let seq = 0;
const nextPhone = () => `1350000${String(++seq).padStart(4, '0')}`;
const registered = async () => (await t.createUser({ phone: nextPhone() })).user.phone;

describe('reset codes for registered and unregistered phones', () => {
  it('answer with the same status and text, first time and within the cooldown', async () => {
    const known = await registered();
    const unknown = nextPhone();
    const [k1, u1] = [await askCode(known), await askCode(unknown)];
    expect(k1.res.statusCode).toBe(200);
    expect(u1.res.statusCode).toBe(k1.res.statusCode);
    expect(u1.res.json()).toEqual(k1.res.json());
    clock.advance(10_000);
    const [k2, u2] = [await askCode(known), await askCode(unknown)];
    expect(k2.res.statusCode).toBe(429);
    expect(u2.res.statusCode).toBe(k2.res.statusCode);
    expect(u2.res.json()).toEqual(k2.res.json());
    clock.advance(61_000);
  });

  it('take about the same time, however slow the SMS provider is', async () => {
    const known: number[] = [];
    const unknown: number[] = [];
    for (let i = 0; i < 3; i++) {
      known.push((await askCode(await registered())).ms);
      unknown.push((await askCode(nextPhone())).ms);
    }
    const median = (v: number[]) => [...v].sort((a, b) => a - b)[1] as number;
    // The provider's second never shows in the answer: both are database work only.
    expect(Math.abs(median(known) - median(unknown))).toBeLessThan(SMS_LATENCY_MS / 2);
    expect(median(known)).toBeLessThan(SMS_LATENCY_MS);
  });

  it('still delivers the code to a registered phone, and it resets the password', async () => {
    const phone = await registered();
    expect((await askCode(phone)).res.statusCode).toBe(200);
    const code = await vi.waitFor(
      () => {
        const sent = delivered.find((d) => d.phone === phone);
        if (!sent) throw new Error('not yet delivered');
        return sent.code;
      },
      { timeout: 3_000 },
    );
    const reset = await post('/api/auth/reset-password', { phone, code, newPassword: 'Reset1234' });
    expect(reset.statusCode, reset.body).toBe(200);
  });

  it('refuse a guessed code alike', async () => {
    const known = await registered();
    const unknown = nextPhone();
    await askCode(known);
    await askCode(unknown);
    const guess = { code: '123456', newPassword: 'Reset1234' };
    const k = await post('/api/auth/reset-password', { phone: known, ...guess });
    const u = await post('/api/auth/reset-password', { phone: unknown, ...guess });
    expect(k.statusCode).toBe(400);
    expect(u.statusCode).toBe(k.statusCode);
    // (A guess right by chance would differ; '123456' is the delivered code one time in a million.)
    expect(u.json()).toEqual(k.json());
    clock.advance(61_000);
  });

  it('answer alike when the provider fails: the failure is logged, not answered', async () => {
    smsFails = true;
    try {
      const k = await askCode(await registered());
      const u = await askCode(nextPhone());
      expect(k.res.statusCode).toBe(200);
      expect(u.res.json()).toEqual(k.res.json());
      await new Promise((r) => setTimeout(r, SMS_LATENCY_MS + 100));
    } finally {
      smsFails = false;
    }
  });
});
