import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixedClock } from '../../platform/clock.ts';
import { instanceTestApp } from '../../test/instances.ts';
import { auditLog } from '../audit/audit.tables.ts';
import { DAY, type H, T0, voucherCalls } from './vouchers.test-helpers.ts';

const clock = fixedClock(T0);
let h: H;
let admin: Record<string, string>;

beforeAll(async () => {
  h = await instanceTestApp(clock);
  admin = await h.t.adminHeaders();
});
afterAll(() => h.t.close());

const { inject, config, distribute, withVoucher } = voucherCalls(
  () => h,
  () => admin,
);

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
