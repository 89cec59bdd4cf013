import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixedClock } from '../../platform/clock.ts';
import { instanceTestApp } from '../../test/instances.ts';
import { settlePaid } from '../payments/payments.usecases.ts';
import { runVoucherNotices } from '../vouchers/voucher-notices.task.ts';
import { DAY, type H, T0, voucherCalls } from '../vouchers/vouchers.test-helpers.ts';
import { userNotices } from './notices.tables.ts';

// Producers outside instances and billing: recharges and vouchers (issue 31), each once.
const clock = fixedClock(T0);
let h: H;
let admin: Record<string, string>;
beforeAll(async () => {
  h = await instanceTestApp(clock);
  admin = await h.t.adminHeaders();
});
afterAll(() => h.t.close());
const { config, distribute } = voucherCalls(
  () => h,
  () => admin,
);
const told = (userId: number, event: string) =>
  h.t.db
    .select()
    .from(userNotices)
    .where(and(eq(userNotices.userId, userId), eq(userNotices.event, event as 'low_balance')))
    .orderBy(userNotices.id);

describe('recharge succeeded', () => {
  it('is told once per paid order, however many notifies arrive', async () => {
    const u = await h.funded(0);
    const res = await h.t.app.inject({
      method: 'POST',
      url: '/api/pay/createQrCode',
      headers: u.headers,
      payload: { amount: 100 },
    });
    expect(res.statusCode, res.body).toBe(200);
    const { orderNo, qrCode } = res.json().data;
    expect((await h.t.app.inject({ method: 'POST', url: new URL(qrCode).pathname })).statusCode).toBe(200);
    const deps = h.t.app.deps.modules.payments;
    expect(await settlePaid(deps, orderNo, { tradeNo: 't', amount: 1_000_000 })).toBe(false);
    await h.t.app.inject({ method: 'POST', url: new URL(qrCode).pathname });
    const notices = await told(u.user.id, 'recharge_succeeded');
    expect(notices).toHaveLength(1);
    expect(notices[0]?.body).toContain('¥100.00');
    expect(notices[0]?.params).toMatchObject({ orderNo, amount: 100 });
  });
});

describe('vouchers', () => {
  it('received: told once per voucher; expiring: told once, 3 days before its end, while it holds money', async () => {
    clock.set(T0);
    const a = await h.funded(0);
    const b = await h.funded(0);
    const { id } = await config({ faceAmount: 20, validDays: 10 });
    await distribute(id, [a.user.phone, b.user.phone]);
    const deps = h.t.app.deps.modules.vouchers;
    await Promise.all([runVoucherNotices(deps), runVoucherNotices(deps)]);
    await runVoucherNotices(deps);
    for (const u of [a, b]) {
      const got = await told(u.user.id, 'voucher_received');
      expect(got).toHaveLength(1);
      expect(got[0]?.body).toContain('面额 ¥20.00');
    }
    expect(await told(a.user.id, 'voucher_expiring')).toHaveLength(0);
    clock.set(new Date(T0.getTime() + 8 * DAY));
    await runVoucherNotices(deps);
    await runVoucherNotices(deps);
    const expiring = await told(a.user.id, 'voucher_expiring');
    expect(expiring).toHaveLength(1);
    expect(expiring[0]?.body).toContain('还剩 ¥20.00');
  });
});
