import { unitsToYuan, yuanToUnits } from '@gpu/shared';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixedClock } from '../../app/clock.ts';
import { auditLog } from '../audit/audit.tables.ts';
import { billingRecords, instances } from '../instances/instances.tables.ts';
import { IMAGE, instanceTestApp } from '../instances/instances.test-helpers.ts';
import { runMetering } from '../instances/tasks/billing-tasks.ts';
import { vouchers } from './vouchers.tables.ts';

const T0 = new Date('2026-12-01T02:00:00Z');
const clock = fixedClock(T0);
const DAY = 86_400_000;
let h: Awaited<ReturnType<typeof instanceTestApp>>;
let admin: Record<string, string>;
let seq = 0;

beforeAll(async () => {
  h = await instanceTestApp(clock);
  admin = await h.t.adminHeaders();
});
afterAll(() => h.t.close());

type User = Awaited<ReturnType<typeof h.funded>>;
const inject = (
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
  url: string,
  headers: object,
  payload?: unknown,
) => h.t.app.inject({ method, url, headers: headers as Record<string, string>, payload: payload as object });

async function config(body: Record<string, unknown>) {
  const res = await inject('POST', '/api/admin/vouchers/configs', admin, {
    name: `测试券${++seq}`,
    faceAmount: 10,
    validDays: 30,
    ...body,
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data as { id: number; issuedCount: number };
}
async function distribute(configId: number, phones: string[], requestId = `req-${++seq}-abcdefgh`) {
  const res = await inject('POST', '/api/admin/voucher-distribution/execute', admin, {
    configId,
    requestId,
    target: { type: 'phones', phones },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}
/** A funded user holding one voucher of a new config. */
async function withVoucher(cfg: Record<string, unknown>, yuan = 100) {
  const u = await h.funded(yuan);
  const { id: configId } = await config(cfg);
  await distribute(configId, [u.user.phone]);
  const list = (await inject('GET', '/api/user/vouchers', u.headers)).json().data.list;
  return { u, configId, voucher: list[0] as { id: number; voucherCode: string; amount: number } };
}
const remaining = async (id: number) =>
  unitsToYuan((await h.t.db.select().from(vouchers).where(eq(vouchers.id, id)))[0]?.remaining ?? -1);
const create = (u: User, body: Record<string, unknown>) =>
  h.create(u.headers, { instanceName: 'v', image: IMAGE, gpuAmount: 1, billingType: 'hourly', ...body });
const bills = async (instanceId: number) => {
  const rows = await h.t.db.select().from(billingRecords).where(eq(billingRecords.instanceId, instanceId));
  return {
    paid: unitsToYuan(rows.reduce((n, r) => n + r.amount, 0)),
    byVoucher: unitsToYuan(rows.reduce((n, r) => n + r.voucherAmount, 0)),
  };
};

describe('issuance and distribution', () => {
  it('issues one voucher per target, idempotent per distribution, within the per-user limit', async () => {
    clock.set(T0);
    const a = await h.funded(0);
    const b = await h.funded(0);
    const { id: configId } = await config({ faceAmount: 20, gpuType: 'L40S' });
    const preview = await inject('POST', '/api/admin/voucher-distribution/preview', admin, {
      configId,
      target: { type: 'phones', phones: [a.user.phone, b.user.phone, '13000000000'] },
    });
    expect(preview.json().data).toMatchObject({ count: 2, atLimit: 0 });

    const first = await distribute(configId, [a.user.phone, b.user.phone], 'dist-once-0001');
    expect(first.data).toMatchObject({ targetCount: 2, issuedCount: 2 });
    const again = await distribute(configId, [a.user.phone, b.user.phone], 'dist-once-0001');
    expect(again.message).toBe('该发放已执行过，未重复发放');
    expect(again.data.id).toBe(first.data.id);
    // A new distribution of the same config: both are at the limit of 1.
    const third = await distribute(configId, [a.user.phone]);
    expect(third.data.issuedCount).toBe(0);

    const mine = (await inject('GET', '/api/user/vouchers', a.headers)).json().data;
    expect(mine.total).toBe(1);
    expect(mine.list[0]).toMatchObject({
      status: 'UNUSED',
      amount: 20,
      remainingAmount: 20,
      usedAmount: 0,
      gpuType: 'L40S',
      expiresAt: new Date(T0.getTime() + 30 * DAY).toISOString(),
    });
    expect((await inject('GET', '/api/user/vouchers/stats', a.headers)).json().data).toMatchObject({
      totalValue: 20,
      unused: 1,
    });
    const detail = (
      await inject('GET', `/api/admin/voucher-distribution/detail/${first.data.id}`, admin)
    ).json().data;
    expect(detail.items.map((i: { userId: number }) => i.userId).sort()).toEqual(
      [a.user.id, b.user.id].sort(),
    );
    const history = (
      await inject('GET', `/api/admin/voucher-distribution/history?configId=${configId}`, admin)
    ).json();
    expect(history.data.total).toBe(2);
    const audits = await h.t.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.target, `voucher-distribution:${first.data.id}`));
    expect(audits).toHaveLength(1);
  });

  it('targets users by registration window and by spend', async () => {
    clock.set(T0);
    const spender = await h.funded(0);
    await h.t.db.execute(
      sql`update users set created_at = '2020-01-02T00:00:00Z' where id = ${spender.user.id}`,
    );
    const { id: configId } = await config({});
    const byWindow = await inject('POST', '/api/admin/voucher-distribution/preview', admin, {
      configId,
      target: { type: 'registered', from: '2020-01-01', to: '2020-01-03' },
    });
    expect(byWindow.json().data.count).toBe(1);
    expect(byWindow.json().data.sample[0].userId).toBe(spender.user.id);
    const bySpend = await inject('POST', '/api/admin/voucher-distribution/preview', admin, {
      configId,
      target: { type: 'spend', minSpend: 1_000_000 },
    });
    expect(bySpend.json().data.count).toBe(0);
  });

  it('refuses to delete a config vouchers were issued from, archives it instead', async () => {
    const { configId } = await withVoucher({});
    const del = await inject('DELETE', `/api/admin/vouchers/configs/${configId}`, admin);
    expect(del.statusCode).toBe(409);
    expect(del.json().message).toContain('不能删除');
    const archived = await inject('DELETE', `/api/admin/vouchers/configs/${configId}?archive=true`, admin);
    expect(archived.json().data).toEqual({ archived: true });
    const list = (await inject('GET', '/api/admin/vouchers/configs?size=200', admin)).json().data.list;
    expect(list.map((c: { id: number }) => c.id)).not.toContain(configId);
    const { id: unused } = await config({});
    expect(
      (await inject('PATCH', `/api/admin/vouchers/configs/${unused}/toggle`, admin)).json().data.enabled,
    ).toBe(false);
    expect((await inject('DELETE', `/api/admin/vouchers/configs/${unused}`, admin)).statusCode).toBe(200);
  });
});

describe('expiry and scope', () => {
  it('expires when past expiresAt: computed, refused at create', async () => {
    clock.set(T0);
    const { u, voucher } = await withVoucher({ validDays: 1 });
    clock.set(new Date(T0.getTime() + DAY - 1));
    // Tokens signed at the clock's time: a day is past an access token's life.
    const headers = { ...u.headers, authorization: `Bearer ${await h.t.userToken(u.user)}` };
    expect((await inject('GET', '/api/user/vouchers', headers)).json().data.list[0].status).toBe('UNUSED');
    clock.set(new Date(T0.getTime() + DAY));
    expect((await inject('GET', '/api/user/vouchers', headers)).json().data.list[0].status).toBe('EXPIRED');
    expect((await inject('GET', '/api/user/vouchers/stats', headers)).json().data).toMatchObject({
      totalValue: 0,
      expired: 1,
    });
    expect((await inject('GET', '/api/user/vouchers/available', headers)).json().data.total).toBe(0);
    const res = await h.create(headers, {
      machineId: await h.idOf('nm-a-l40s-01'),
      instanceName: 'v',
      image: IMAGE,
      gpuAmount: 1,
      billingType: 'hourly',
      voucherId: voucher.id,
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().message).toBe('代金券已过期');
    clock.set(T0);
  });

  it('refuses a voucher of another GPU type or below its minimum, and another user’s', async () => {
    clock.set(T0);
    const { u, voucher } = await withVoucher({ gpuType: 'L40S', minOrderAmount: 5 });
    const available = (q: string) => inject('GET', `/api/user/vouchers/available?${q}`, u.headers);
    expect((await available('gpuType=A100%2080GB')).json().data.total).toBe(0);
    expect((await available('gpuType=L40S&minAmount=4')).json().data.total).toBe(0);
    expect((await available('gpuType=l40s&minAmount=5')).json().data.total).toBe(1);
    const wrong = await create(u, { machineId: await h.idOf('bj-a-a100-01'), voucherId: voucher.id });
    expect(wrong.statusCode).toBe(422);
    expect(wrong.json().message).toBe('代金券仅适用于 L40S');
    // One hour of L40S is 3.98 < 5.
    const small = await create(u, { machineId: await h.idOf('nm-a-l40s-01'), voucherId: voucher.id });
    expect(small.json().message).toBe('订单金额未达到代金券使用门槛');
    const validate = await inject('POST', '/api/user/vouchers/validate', u.headers, {
      voucherCode: voucher.voucherCode,
      regionId: 1,
      gpuType: 'A10',
      orderAmount: 100,
    });
    expect(validate.json().data).toMatchObject({ valid: false, reason: '代金券仅适用于 L40S' });
    const other = await h.funded(100);
    const stolen = await create(other, { machineId: await h.idOf('nm-a-l40s-01'), voucherId: voucher.id });
    expect(stolen.statusCode).toBe(404);
    expect(await remaining(voucher.id)).toBe(10);
  });
});

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

describe('admin discounts', () => {
  it('create, overlap (lowest rate wins), disable, delete; the quote reads the same rules; every write audited', async () => {
    clock.set(T0);
    const u = await h.funded(0);
    const machineId = await h.idOf('nm-a-l40s-01');
    const rate = async () =>
      (
        await inject('POST', '/api/v2/package-billing/calculate-price', u.headers, {
          machineId,
          billingType: 'hourly',
          gpuAmount: 1,
        })
      ).json().data.discountRate;
    const base = await rate();
    const window = { startTime: '2026-11-30T00:00:00Z', endTime: '2026-12-31T00:00:00Z' };
    const a = await inject('POST', '/api/admin/discounts', admin, {
      name: '八折',
      discountRate: 0.8,
      gpuType: 'L40S',
      ...window,
    });
    expect(a.statusCode, a.body).toBe(200);
    expect(a.json().data.state).toBe('ACTIVE');
    const b = await inject('POST', '/api/admin/discounts', admin, {
      name: '六折',
      discountRate: 0.6,
      ...window,
    });
    expect(await rate()).toBe(Math.min(0.6, base));
    await inject('PUT', `/api/admin/discounts/${b.json().data.id}/status`, admin, { enabled: false });
    expect(await rate()).toBe(Math.min(0.8, base));
    await inject('DELETE', `/api/admin/discounts/${a.json().data.id}`, admin);
    await inject('DELETE', `/api/admin/discounts/${b.json().data.id}`, admin);
    expect(await rate()).toBe(base);
    const bad = await inject('POST', '/api/admin/discounts', admin, {
      name: 'x',
      discountRate: 1.5,
      ...window,
    });
    expect(bad.statusCode).toBe(400);
    const audits = await h.t.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.target, `discount:${a.json().data.id}`)));
    expect(audits.map((r) => r.action).sort()).toEqual(['discount.create', 'discount.delete']);
    const dash = await inject('GET', '/api/admin/dashboard', admin);
    expect(dash.json().data.users).toBeGreaterThan(0);
  });
});
