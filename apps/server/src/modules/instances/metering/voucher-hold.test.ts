import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixedClock } from '../../../platform/clock.ts';
import { IMAGE, instanceTestApp } from '../../../test/instances.ts';
import { vouchers } from '../../vouchers/vouchers.tables.ts';
import { billingRecords, instances } from '../instances.tables.ts';
import { runMetering } from '../tasks/billing-tasks.ts';
import { splitHold } from './voucher-hold.ts';

// The voucher step of pay-as-you-go metering, on its own: whatever computes the accrual
// (today's per-instance loop or a set-based rewrite), these must keep holding.
describe('splitHold', () => {
  it.each([
    [0, 500, 0, 500],
    [300, 500, 300, 200],
    [800, 500, 500, 0],
    [500, 0, 0, 0],
  ])('hold %i, amount %i → voucher %i, balance %i', (held, amount, fromVoucher, fromBalance) => {
    expect(splitHold(held, amount)).toEqual({ fromVoucher, fromBalance });
  });
});

describe('the hold under metering', () => {
  const T0 = new Date('2026-12-03T00:00:00Z');
  const clock = fixedClock(T0);
  let h: Awaited<ReturnType<typeof instanceTestApp>>;
  beforeAll(async () => {
    h = await instanceTestApp(clock);
  });
  afterAll(() => h.t.close());

  it('is spent exactly once however often metering runs, before the balance, in integer units', async () => {
    const admin = await h.t.adminHeaders();
    const u = await h.funded(50);
    const cfg = await h.t.app.inject({
      method: 'POST',
      url: '/api/admin/vouchers/configs',
      headers: admin,
      payload: { name: '按量券', faceAmount: 2, validDays: 7 },
    });
    await h.t.app.inject({
      method: 'POST',
      url: '/api/admin/voucher-distribution/execute',
      headers: admin,
      payload: {
        configId: cfg.json().data.id,
        requestId: 'hold-test-0001',
        target: { type: 'phones', phones: [u.user.phone] },
      },
    });
    const [v] = await h.t.db.select().from(vouchers).where(eq(vouchers.userId, u.user.id));
    const res = await h.create(u.headers, {
      machineId: await h.idOf('nm-a-l40s-01'),
      instanceName: 'hold',
      image: IMAGE,
      gpuAmount: 1,
      billingType: 'hourly',
      voucherId: v?.id,
    });
    const id = res.json().data.id as number;
    const row = async () => (await h.t.db.select().from(instances).where(eq(instances.id, id)))[0];
    expect((await row())?.voucherHeld).toBe(20_000);

    // 20 min of 3.98/h = 1.3266… → 1.32 posted, all from the hold; a second run changes nothing.
    clock.set(new Date(T0.getTime() + 20 * 60_000));
    await runMetering(h.deps);
    await runMetering(h.deps);
    expect(await row()).toMatchObject({ voucherHeld: 20_000 - 13_200, voucherUsed: 13_200, charged: 13_200 });
    expect(await h.balance(u.user.id)).toBe(50);

    // 40 min: 2.65 posted; the hold (0.68 left) pays first, 0.65 from the balance.
    clock.set(new Date(T0.getTime() + 40 * 60_000));
    await Promise.all([runMetering(h.deps), runMetering(h.deps)]);
    expect(await row()).toMatchObject({ voucherHeld: 0, voucherUsed: 20_000, charged: 26_500 });
    expect(await h.balance(u.user.id)).toBe(50 - 0.65);
    const lines = await h.t.db.select().from(billingRecords).where(eq(billingRecords.instanceId, id));
    expect(lines.reduce((n, l) => n + l.voucherAmount, 0)).toBe(20_000);
    expect(lines.reduce((n, l) => n + l.amount, 0)).toBe(6_500);
    const [after] = await h.t.db.select().from(vouchers).where(eq(vouchers.userId, u.user.id));
    expect(after?.remaining).toBe(0);
  });
});
