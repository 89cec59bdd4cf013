import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixedClock } from '../../platform/clock.ts';
import { rollTally } from '../../platform/db/tallies.ts';
import { IMAGE, instanceTestApp } from '../../test/instances.ts';
import { expectPagesFromBothEnds, type PageRead } from '../../test/pages.ts';
import { auditLog } from '../audit/audit.tables.ts';
import { VOUCHERS_TALLY } from './vouchers.repository.ts';
import { DAY, type H, T0, voucherCalls } from './vouchers.test-helpers.ts';

const clock = fixedClock(T0);
let h: H;
let admin: Record<string, string>;

beforeAll(async () => {
  h = await instanceTestApp(clock);
  admin = await h.t.adminHeaders();
});
afterAll(() => h.t.close());

const { inject, config, distribute, withVoucher, remaining, create } = voucherCalls(
  () => h,
  () => admin,
);

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
    // Once tallied (issue 33) the wallet's total is the same; a voucher after the tally counts too.
    expect(await rollTally(h.t.db, VOUCHERS_TALLY, 0)).toBeGreaterThanOrEqual(2);
    expect((await inject('GET', '/api/user/vouchers', a.headers)).json().data.total).toBe(1);
    const { id: another } = await config({ faceAmount: 5 });
    expect((await distribute(another, [a.user.phone])).data.issuedCount).toBe(1);
    expect((await inject('GET', '/api/user/vouchers', a.headers)).json().data.total).toBe(2);
    expect((await inject('GET', '/api/user/vouchers', b.headers)).json().data.total).toBe(1);
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

describe('the wallet’s pages (issue 33)', () => {
  it('are the same whichever end of the wallet they are read from, ties on expiry by id', async () => {
    clock.set(T0);
    const { u } = await withVoucher({ faceAmount: 20 });
    // 24 more, five to an expiry time (ties), not in id order.
    await h.t.db.execute(sql`
      insert into vouchers (tenant_id, user_id, config_id, code, name, amount, remaining, expires_at)
      select tenant_id, user_id, config_id, code || '-' || g, name, amount, remaining,
        expires_at - ((g * 7) % 5) * interval '1 day'
      from vouchers, generate_series(1, 24) g where user_id = ${u.user.id}`);
    await rollTally(h.t.db, VOUCHERS_TALLY, 0);
    const page: PageRead = async (q) => {
      const data = (await inject('GET', `/api/user/vouchers?${q}`, u.headers)).json().data;
      return { total: data.total as number, ids: data.list.map((v: { id: number }) => v.id) as number[] };
    };
    // A status filter takes the general query (every one is unused): the reference.
    await expectPagesFromBothEnds(page, (await page('status=UNUSED&size=100')).ids);
  });
});
