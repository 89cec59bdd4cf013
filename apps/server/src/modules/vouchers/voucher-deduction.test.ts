import { yuanToUnits } from '@gpu/shared';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixedClock } from '../../platform/clock.ts';
import { instanceTestApp } from '../../test/instances.ts';
import { instances } from '../instances/instances.tables.ts';
import { runMetering } from '../instances/tasks/billing-tasks.ts';
import { vouchers } from './vouchers.tables.ts';
import { DAY, type H, T0, voucherCalls } from './vouchers.test-helpers.ts';

const clock = fixedClock(T0);
let h: H;
let admin: Record<string, string>;

beforeAll(async () => {
  h = await instanceTestApp(clock);
  admin = await h.t.adminHeaders();
});
afterAll(() => h.t.close());

const { inject, config, distribute, withVoucher, remaining, create, bills, regionIdOf } = voucherCalls(
  () => h,
  () => admin,
);

describe('deduction', () => {
  it('package: calculate-price shows the deduction, create charges exactly that, bills and voucher agree', async () => {
    clock.set(T0);
    const { u, voucher } = await withVoucher({ faceAmount: 50 }, 200);
    const machineId = await h.idOf('nm-a-l40s-01');
    const order = { machineId, billingType: 'daily', duration: 1, gpuAmount: 1 };
    const quote = (
      await inject('POST', '/api/v2/package-billing/calculate-price', u.headers, {
        ...order,
        voucherId: voucher.id,
      })
    ).json().data;
    expect(quote.voucherDeduction).toBe(50);
    const res = await create(u, { ...order, voucherId: voucher.id });
    expect(res.statusCode, res.body).toBe(200);
    const id = res.json().data.id;
    expect(await h.balance(u.user.id)).toBe(200 - quote.payableAmount);
    expect(await bills(id)).toEqual({ paid: quote.payableAmount, byVoucher: 50 });
    expect(await remaining(voucher.id)).toBe(0);
    const list = (await inject('GET', '/api/user/vouchers', u.headers)).json().data.list;
    expect(list[0]).toMatchObject({ status: 'USED', usedAmount: 50 });
  });

  it('pay-as-you-go across two instances: held at create, spent before the balance, the rest returned at release', async () => {
    clock.set(T0);
    const { u, voucher } = await withVoucher({ faceAmount: 10 }, 100);
    const machineId = await h.idOf('nm-a-l40s-01');
    // One hour of L40S is 3.98: each instance holds that much.
    const one = (await create(u, { machineId, voucherId: voucher.id })).json().data.id;
    const two = (await create(u, { machineId, voucherId: voucher.id })).json().data.id;
    expect(await remaining(voucher.id)).toBeCloseTo(10 - 3.98 * 2, 4);

    clock.set(new Date(T0.getTime() + 30 * 60_000));
    await runMetering(h.deps);
    // 1.99 each, all from the holds: the balance is untouched.
    expect(await h.balance(u.user.id)).toBe(100);
    expect(await bills(one)).toEqual({ paid: 0, byVoucher: 1.99 });

    const headers = { ...u.headers, authorization: `Bearer ${await h.t.userToken(u.user)}` };
    expect((await h.action(headers, 'release', one)).statusCode).toBe(200);
    expect(await remaining(voucher.id)).toBeCloseTo(2.04 + 1.99, 4);

    // Two runs 2 h: 7.96 accrued, 3.98 from the hold, 3.98 from the balance.
    clock.set(new Date(T0.getTime() + 120 * 60_000));
    await runMetering(h.deps);
    expect(await bills(two)).toEqual({ paid: 3.98, byVoucher: 3.98 });
    expect(await h.balance(u.user.id)).toBe(100 - 3.98);
    const [row] = await h.t.db.select().from(instances).where(eq(instances.id, two));
    expect(row).toMatchObject({ voucherHeld: 0, voucherUsed: yuanToUnits(3.98) });
    // What the voucher lost equals what the bills say it paid.
    const spent = (await bills(one)).byVoucher + (await bills(two)).byVoucher;
    expect(10 - (await remaining(voucher.id))).toBeCloseTo(spent, 4);
    await h.action(headers, 'release', two);
    expect(await remaining(voucher.id)).toBeCloseTo(10 - spent, 4);
    clock.set(T0);
  });

  it('a create that fails gives the voucher back', async () => {
    clock.set(T0);
    const { u, voucher } = await withVoucher({ faceAmount: 30 }, 200);
    await h.setHostSettings('nm-a-l40s-01', '{"unreachable":true}');
    try {
      const res = await create(u, {
        machineId: await h.idOf('nm-a-l40s-01'),
        billingType: 'daily',
        duration: 1,
        voucherId: voucher.id,
      });
      expect(res.statusCode, res.body).toBe(200);
      const id = res.json().data.id;
      const [row] = await h.t.db.select().from(instances).where(eq(instances.id, id));
      expect(row?.status).toBe('FAILED');
      expect(await bills(id)).toEqual({ paid: 0, byVoucher: 0 });
    } finally {
      await h.setHostSettings('nm-a-l40s-01', '{"unreachable":false}');
    }
    expect(await remaining(voucher.id)).toBe(30);
    expect(await h.balance(u.user.id)).toBe(200);
  });
});

describe('use, status filter and region scope', () => {
  it('POST /use answers the deduction for a usable voucher and the reason for an unusable one, moving nothing', async () => {
    clock.set(T0);
    const { u, voucher } = await withVoucher({ faceAmount: 30, gpuType: 'L40S' });
    const use = (body: Record<string, unknown>) =>
      inject('POST', '/api/user/vouchers/use', u.headers, {
        voucherCode: voucher.voucherCode,
        regionId: 1,
        gpuType: 'L40S',
        ...body,
      });
    const partial = await use({ orderAmount: 12.5 });
    expect(partial.statusCode, partial.body).toBe(200);
    expect(partial.json().message).toBe('代金券可用');
    expect(partial.json().data).toEqual({
      valid: true,
      voucherId: voucher.id,
      deduction: 12.5,
      reason: null,
    });
    // Capped by what is left.
    expect((await use({ orderAmount: 100 })).json().data.deduction).toBe(30);

    const wrongType = await use({ gpuType: 'A100', orderAmount: 100 });
    expect(wrongType.statusCode).toBe(200);
    expect(wrongType.json().message).toBe('代金券仅适用于 L40S');
    expect(wrongType.json().data).toEqual({
      valid: false,
      voucherId: voucher.id,
      deduction: 0,
      reason: '代金券仅适用于 L40S',
    });
    const unknown = await use({ voucherCode: 'VNOSUCHCODE00', orderAmount: 100 });
    expect(unknown.json().data).toMatchObject({ valid: false, voucherId: null, reason: '代金券不存在' });
    // Another user's code is not theirs to use.
    const other = await h.funded(0);
    const stolen = await inject('POST', '/api/user/vouchers/use', other.headers, {
      voucherCode: voucher.voucherCode,
      regionId: 1,
      gpuType: 'L40S',
      orderAmount: 10,
    });
    expect(stolen.json().data).toMatchObject({ valid: false, reason: '代金券不存在' });
    expect((await inject('POST', '/api/user/vouchers/use', {}, { voucherCode: 'x' })).statusCode).toBe(401);
    // The money moves only when an order is created with the voucher.
    expect(await remaining(voucher.id)).toBe(30);
  });

  it('filters the list by status', async () => {
    clock.set(T0);
    const u = await h.funded(0);
    const short = await config({ validDays: 1 });
    const long = await config({ validDays: 30 });
    await distribute(short.id, [u.user.phone]);
    await distribute(long.id, [u.user.phone]);
    await distribute((await config({ validDays: 30 })).id, [u.user.phone]);
    const all = (await inject('GET', '/api/user/vouchers', u.headers)).json().data.list as {
      id: number;
      status: string;
    }[];
    expect(all).toHaveLength(3);
    // Nearest expiry first: the one-day voucher, then the two 30-day ones; the last is spent.
    const [expiring, kept, spent] = all.map((v) => v.id) as [number, number, number];
    await h.t.db.update(vouchers).set({ remaining: 0 }).where(eq(vouchers.id, spent));
    clock.set(new Date(T0.getTime() + DAY));
    const headers = { ...u.headers, authorization: `Bearer ${await h.t.userToken(u.user)}` };
    const ids = async (status: string) => {
      const res = await inject('GET', `/api/user/vouchers?status=${status}`, headers);
      expect(res.statusCode, res.body).toBe(200);
      const page = res.json().data as { total: number; list: { id: number; status: string }[] };
      expect(page.list.every((v) => v.status === status)).toBe(true);
      expect(page.total).toBe(page.list.length);
      return page.list.map((v) => v.id);
    };
    expect(await ids('UNUSED')).toEqual([kept]);
    expect(await ids('USED')).toEqual([spent]);
    expect(await ids('EXPIRED')).toEqual([expiring]);
    const bad = await inject('GET', '/api/user/vouchers?status=GONE', headers);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toContain('状态只能是');
    clock.set(T0);
  });

  it('refuses a voucher of another region at calculate-price and create: nothing charged, voucher unchanged', async () => {
    clock.set(T0);
    const beijing = await regionIdOf('beijing-a');
    const { u, voucher } = await withVoucher({ faceAmount: 20, regionId: beijing }, 200);
    expect(voucher).toMatchObject({ amount: 20 });
    const machineId = await h.idOf('nm-a-l40s-01');
    for (const billingType of ['hourly', 'daily']) {
      const order = { machineId, billingType, duration: 1, gpuAmount: 1, voucherId: voucher.id };
      const quote = await inject('POST', '/api/v2/package-billing/calculate-price', u.headers, order);
      expect(quote.statusCode, billingType).toBe(422);
      expect(quote.json().message).toBe('代金券不适用于该地区');
      const res = await create(u, order);
      expect(res.statusCode, billingType).toBe(422);
      expect(res.json().message).toBe('代金券不适用于该地区');
    }
    expect(await h.balance(u.user.id)).toBe(200);
    expect(await remaining(voucher.id)).toBe(20);
    expect(await h.t.db.select().from(instances).where(eq(instances.userId, u.user.id))).toEqual([]);
    const [row] = (await inject('GET', '/api/user/vouchers', u.headers)).json().data.list;
    expect(row).toMatchObject({ status: 'UNUSED', remainingAmount: 20, usedAmount: 0, regionId: beijing });
    // In its own region the same voucher is accepted.
    const ok = await inject('POST', '/api/v2/package-billing/calculate-price', u.headers, {
      machineId: await h.idOf('bj-a-a100-01'),
      billingType: 'hourly',
      gpuAmount: 1,
      voucherId: voucher.id,
    });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().data.voucherDeduction).toBeGreaterThan(0);
  });
});
