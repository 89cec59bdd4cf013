import { unitsToYuan, yuanToUnits } from '@gpu/shared';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixedClock } from '../../platform/clock.ts';
import { auditLog } from '../audit/audit.tables.ts';
import { regions } from '../hosts/hosts.tables.ts';
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

const regionIdOf = async (code: string) =>
  (await h.t.db.select().from(regions).where(eq(regions.code, code)))[0]?.id as number;

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

describe('admin voucher configs and distribution: update, tenant target, unknown ids', () => {
  it('updates a config: later vouchers take the new terms, issued ones keep theirs; audited', async () => {
    clock.set(T0);
    const { u, configId, voucher } = await withVoucher({ faceAmount: 10, gpuType: 'L40S' });
    const res = await inject('PUT', `/api/admin/vouchers/configs/${configId}`, admin, {
      name: '改过的券',
      description: '新说明',
      faceAmount: 25,
      validDays: 7,
      minOrderAmount: 1,
      perUserLimit: 2,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().message).toBe('代金券配置已保存');
    expect(res.json().data).toMatchObject({
      id: configId,
      name: '改过的券',
      description: '新说明',
      faceAmount: 25,
      validDays: 7,
      gpuType: null,
      minOrderAmount: 1,
      perUserLimit: 2,
      issuedCount: 1,
    });
    const listed = (
      await inject('GET', `/api/admin/vouchers/configs?keyword=${encodeURIComponent('改过的券')}`, admin)
    ).json().data.list;
    expect(listed.map((c: { id: number }) => c.id)).toContain(configId);

    // The per-user limit is now 2: a second voucher, on the new terms.
    await distribute(configId, [u.user.phone]);
    const mine = (await inject('GET', '/api/user/vouchers', u.headers)).json().data.list as {
      id: number;
      amount: number;
      gpuType: string;
      expiresAt: string;
    }[];
    expect(mine).toHaveLength(2);
    expect(mine.find((v) => v.id === voucher.id)).toMatchObject({ amount: 10, gpuType: 'L40S' });
    expect(mine.find((v) => v.id !== voucher.id)).toMatchObject({
      amount: 25,
      // The user's shape says "any GPU" with an empty type.
      gpuType: '',
      expiresAt: new Date(T0.getTime() + 7 * DAY).toISOString(),
    });
    const [audit] = await h.t.db
      .select()
      .from(auditLog)
      .where(
        and(eq(auditLog.action, 'voucher-config.update'), eq(auditLog.target, `voucher-config:${configId}`)),
      );
    expect(audit?.detail).toMatchObject({ before: { faceAmount: 100_000 }, after: { faceAmount: 250_000 } });

    const bad = await inject('PUT', `/api/admin/vouchers/configs/${configId}`, admin, {
      name: '无效',
      faceAmount: 10,
      validDays: 7,
      regionId: 999_999,
    });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().message).toBe('地区不存在');
  });

  it('targets every user of a tenant: preview counts them, execute issues to them only', async () => {
    clock.set(T0);
    const tenants = (await inject('GET', '/api/admin/tenants', admin)).json().data as {
      code: string;
      config: unknown;
    }[];
    const aurora = tenants.find((x) => x.code === 'aurora');
    const made = await inject('POST', '/api/admin/tenants', admin, {
      code: 'voucher-tenant',
      name: '券测试租户',
      domains: ['vouchers.tenant.example'],
      config: aurora?.config,
    });
    expect(made.statusCode, made.body).toBe(200);
    const tenantId = made.json().data.id as number;
    const a = await h.funded(0, 'vouchers.tenant.example');
    const b = await h.funded(0, 'vouchers.tenant.example');
    expect([a.user.tenantId, b.user.tenantId]).toEqual([tenantId, tenantId]);
    const outsider = await h.funded(0);
    const { id: configId } = await config({ faceAmount: 8 });
    const target = { type: 'tenant', tenantId };

    const preview = await inject('POST', '/api/admin/voucher-distribution/preview', admin, {
      configId,
      target,
    });
    expect(preview.statusCode, preview.body).toBe(200);
    expect(preview.json().data).toMatchObject({ count: 2, atLimit: 0 });
    expect(preview.json().data.sample.map((s: { userId: number }) => s.userId)).toEqual(
      [a.user.id, b.user.id].sort((x, y) => x - y),
    );

    const run = await inject('POST', '/api/admin/voucher-distribution/execute', admin, {
      configId,
      target,
      requestId: 'tenant-dist-0001',
    });
    expect(run.statusCode, run.body).toBe(200);
    expect(run.json().data).toMatchObject({ targetCount: 2, issuedCount: 2, target });
    const detail = (
      await inject('GET', `/api/admin/voucher-distribution/detail/${run.json().data.id}`, admin)
    ).json().data;
    expect(detail.items.map((i: { userId: number }) => i.userId).sort()).toEqual(
      [a.user.id, b.user.id].sort(),
    );
    for (const u of [a, b]) {
      const list = (await inject('GET', '/api/user/vouchers', u.headers)).json().data.list;
      expect(list).toHaveLength(1);
      expect(list[0]).toMatchObject({ amount: 8, status: 'UNUSED' });
    }
    expect((await inject('GET', '/api/user/vouchers', outsider.headers)).json().data.total).toBe(0);
    // Now both hold one: the preview says they are at the per-user limit.
    const again = await inject('POST', '/api/admin/voucher-distribution/preview', admin, {
      configId,
      target,
    });
    expect(again.json().data).toMatchObject({ count: 2, atLimit: 2 });
  });

  it('answers 404 in Chinese for unknown config and distribution ids', async () => {
    const cases: [string, string, unknown, string][] = [
      [
        'PUT',
        '/api/admin/vouchers/configs/999999',
        { name: 'x', faceAmount: 1, validDays: 1 },
        '代金券配置不存在',
      ],
      ['PATCH', '/api/admin/vouchers/configs/999999/toggle', undefined, '代金券配置不存在'],
      ['DELETE', '/api/admin/vouchers/configs/999999', undefined, '代金券配置不存在'],
      [
        'POST',
        '/api/admin/voucher-distribution/preview',
        { configId: 999_999, target: { type: 'phones', phones: ['13800000000'] } },
        '代金券配置不存在',
      ],
      [
        'POST',
        '/api/admin/voucher-distribution/execute',
        {
          configId: 999_999,
          requestId: 'unknown-cfg-01',
          target: { type: 'phones', phones: ['13800000000'] },
        },
        '代金券配置不存在',
      ],
      ['GET', '/api/admin/voucher-distribution/detail/999999', undefined, '发放记录不存在'],
    ];
    for (const [method, url, body, message] of cases) {
      const res = await inject(method as 'GET', url, admin, body);
      expect(res.statusCode, `${method} ${url}`).toBe(404);
      expect(res.json().message, `${method} ${url}`).toBe(message);
    }
  });
});
