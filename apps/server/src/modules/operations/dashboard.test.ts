import { yuanToUnits } from '@gpu/shared';
import { addDays, shanghaiToday } from '@gpu/shared/time';
import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixedClock } from '../../platform/clock.ts';
import { instanceTestApp } from '../../test/instances.ts';
import { users } from '../auth/auth.tables.ts';
import { gpuSkus } from '../hosts/catalog.tables.ts';
import { hostGpus, hosts } from '../hosts/hosts.tables.ts';
import { billingRecords, instanceEvents, instances } from '../instances/instances.tables.ts';
import { postLedgerEntry } from '../ledger/index.ts';
import { accounts } from '../ledger/ledger.tables.ts';
import { tenantHosts, tenants } from '../tenants/tenants.tables.ts';
import type { H } from './operations.test-helpers.ts';

// 12:00 in Shanghai: every day below is a whole Shanghai day.
const NOW = new Date('2026-12-10T04:00:00Z');
const TODAY = shanghaiToday(NOW);
const clock = fixedClock(NOW);
const HOUR = 3_600_000;
let h: H;
let admin: Record<string, string>;
let tenantId: number;
let rich: number;
let poor: number;
let failedId: number;
let hostId: number;

const dash = async (q: string) => {
  const res = await h.t.app.inject({ method: 'GET', url: `/api/admin/ops-dashboard?${q}`, headers: admin });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data;
};

/** A tenant of its own, so the figures asserted are exactly what this file wrote. */
beforeAll(async () => {
  h = await instanceTestApp(clock);
  admin = await h.t.adminHeaders();
  const db = h.t.db;
  const [home] = await db.select().from(tenants).limit(1);
  const [tenant] = await db
    .insert(tenants)
    .values({ code: 'dash', name: '仪表盘租户', config: home?.config as never })
    .returning();
  tenantId = tenant?.id as number;
  const user = async (phone: string) => {
    const [u] = await db
      .insert(users)
      .values({ tenantId, phone, username: phone, passwordHash: 'x' })
      .returning();
    await db.insert(accounts).values({ userId: u?.id as number, tenantId });
    return u?.id as number;
  };
  rich = await user('13600000001');
  poor = await user('13600000002');
  let seq = 0;
  const post = (kind: 'recharge' | 'charge' | 'refund', yuan: number, at: Date) =>
    db.transaction((tx) =>
      postLedgerEntry(tx, {
        userId: rich,
        kind,
        amount: yuanToUnits(yuan),
        idempotencyKey: `dash:${++seq}`,
        at,
      }),
    );
  await post('recharge', 100, new Date(NOW.getTime() - HOUR));
  await post('recharge', 50, new Date(NOW.getTime() - 2 * 24 * HOUR));
  await post('recharge', 30, new Date(NOW.getTime() - 10 * 24 * HOUR));
  await post('charge', -20, new Date(NOW.getTime() - HOUR));
  await post('refund', 5, new Date(NOW.getTime() - HOUR));

  const [host] = await db.select().from(hosts).where(eq(hosts.name, 'nm-a-l40s-01'));
  hostId = host?.id as number;
  const [sku] = await db.select().from(gpuSkus).where(eq(gpuSkus.hostId, hostId)).limit(1);
  const inst = async (status: 'FAILED' | 'RELEASED', reason: string | null) => {
    const [row] = await db
      .insert(instances)
      .values({
        tenantId,
        userId: rich,
        hostId,
        skuId: sku?.id as number,
        regionId: host?.regionId as number,
        name: `dash-${status}`,
        image: 'img',
        gpuModel: 'L40S',
        gpuCount: 1,
        billingType: 'hourly',
        hourlyRate: yuanToUnits(3.98),
        status,
        rootPasswordEnc: 'x',
        stopReason: reason,
        createdAt: new Date(NOW.getTime() - 3 * HOUR),
      })
      .returning();
    return row?.id as number;
  };
  failedId = await inst('FAILED', '创建失败：主机暂时不可用，未扣费');
  await db.insert(instanceEvents).values({
    instanceId: failedId,
    fromStatus: 'CREATING',
    toStatus: 'FAILED',
    actor: 'system',
    createdAt: new Date(NOW.getTime() - 2 * HOUR),
  });
  const used = await inst('RELEASED', null);
  const bill = (amount: number, voucher: number) => ({
    tenantId,
    userId: rich,
    instanceId: used,
    billingType: 'hourly' as const,
    kind: 'metering',
    periodStart: NOW,
    periodEnd: NOW,
    amount: yuanToUnits(amount),
    voucherAmount: yuanToUnits(voucher),
    createdAt: new Date(NOW.getTime() - HOUR),
  });
  await db.insert(billingRecords).values([bill(20, 8), { ...bill(-5, 0), kind: 'refund' }]);

  // The tenant sells one host: two of its GPUs taken (one by an instance, one held back).
  await db.insert(tenantHosts).values({ tenantId, hostId });
  const gpus = await db.select().from(hostGpus).where(eq(hostGpus.hostId, hostId));
  await db
    .update(hostGpus)
    .set({ instanceId: used })
    .where(eq(hostGpus.id, gpus[0]?.id as number));
  await db
    .update(hostGpus)
    .set({ reservedReason: '线下客户' })
    .where(eq(hostGpus.id, gpus[1]?.id as number));
  await db
    .update(hosts)
    .set({ lastProbeAt: new Date(NOW.getTime() - 20 * 60_000), lastProbeOk: true })
    .where(eq(hosts.id, hostId));
});
afterAll(async () => {
  await h.t.db
    .update(hostGpus)
    .set({ instanceId: null, reservedReason: null })
    .where(eq(hostGpus.hostId, hostId));
  await h.t.close();
});

describe('admin operations dashboard', () => {
  it('trends per Shanghai day, zero-filled, with totals for the period', async () => {
    const d = await dash(`tenantId=${tenantId}`);
    expect(d).toMatchObject({ days: 7, from: addDays(TODAY, -6), to: TODAY });
    expect(d.trend).toHaveLength(7);
    expect(d.trend[6]).toEqual({ date: TODAY, recharge: 100, consumption: 23, revenue: 15 });
    expect(d.trend[4]).toEqual({ date: addDays(TODAY, -2), recharge: 50, consumption: 0, revenue: 0 });
    expect(d.trend[0]).toEqual({ date: addDays(TODAY, -6), recharge: 0, consumption: 0, revenue: 0 });
    expect(d.totals).toEqual({ recharge: 150, consumption: 23, revenue: 15 });
    const month = await dash(`tenantId=${tenantId}&days=30`);
    expect(month.trend).toHaveLength(30);
    expect(month.totals.recharge).toBe(180);
    // Unscoped: the whole platform, this tenant's figures included.
    const all = await dash('days=7');
    expect(all.trend[6].recharge).toBeGreaterThanOrEqual(100);
  });

  it('occupancy by model and host over the tenant’s hosts: free, occupied, reserved', async () => {
    const d = await dash(`tenantId=${tenantId}`);
    const total = (await h.t.db.select().from(hostGpus).where(eq(hostGpus.hostId, hostId))).length;
    const states = { total, free: total - 2, occupied: 1, reserved: 1 };
    expect(d.occupancyByHost).toEqual([
      { hostId, hostName: 'nm-a-l40s-01', regionName: expect.any(String), ...states },
    ]);
    expect(d.occupancyByModel).toEqual([{ model: 'L40S', ...states }]);
    const all = await dash('');
    expect(all.occupancyByHost.length).toBeGreaterThan(1);
  });

  it('failed creates with their reason and time; hosts not seen; low balances', async () => {
    const d = await dash(`tenantId=${tenantId}`);
    expect(d.failedCreates).toEqual({
      count: 1,
      latest: [
        {
          instanceId: failedId,
          instanceName: 'dash-FAILED',
          userId: rich,
          phone: '13600000001',
          tenantName: '仪表盘租户',
          hostName: 'nm-a-l40s-01',
          gpuModel: 'L40S',
          reason: '创建失败：主机暂时不可用，未扣费',
          failedAt: new Date(NOW.getTime() - 2 * HOUR).toISOString(),
        },
      ],
    });
    expect(d.staleHosts).toEqual({
      minutes: 10,
      list: [
        {
          hostId,
          hostName: 'nm-a-l40s-01',
          regionName: expect.any(String),
          lastProbeAt: new Date(NOW.getTime() - 20 * 60_000).toISOString(),
          lastProbeOk: true,
          lastProbeError: null,
        },
      ],
    });
    expect((await dash(`tenantId=${tenantId}&staleMinutes=30`)).staleHosts.list).toEqual([]);
    // Balance 165: only the empty account is under 10; under 200 both, lowest first.
    expect(d.lowBalance).toEqual({
      threshold: 10,
      count: 1,
      list: [
        {
          userId: poor,
          phone: '13600000002',
          username: '13600000002',
          tenantName: '仪表盘租户',
          available: 0,
        },
      ],
    });
    const low = await dash(`tenantId=${tenantId}&lowBalance=200`);
    expect(
      low.lowBalance.list.map((u: { userId: number; available: number }) => [u.userId, u.available]),
    ).toEqual([
      [poor, 0],
      [rich, 165],
    ]);
    // A disabled account is not listed.
    await h.t.db
      .update(users)
      .set({ status: 'DISABLED' })
      .where(and(inArray(users.id, [poor]), eq(users.tenantId, tenantId)));
    expect((await dash(`tenantId=${tenantId}`)).lowBalance.count).toBe(0);
    await h.t.db.update(users).set({ status: 'ACTIVE' }).where(eq(users.id, poor));
  });

  it('refuses a bad query with a 400 naming the field, and anyone but an admin', async () => {
    for (const [q, message] of [
      ['days=14', '统计周期只能是 7、30 或 90 天'],
      ['days=abc', '统计周期只能是 7、30 或 90 天'],
      ['lowBalance=-1', '低余额阈值不能为负'],
      ['staleMinutes=0', '失联分钟数至少为1'],
      ['tenantId=x', '租户编号无效'],
    ]) {
      const res = await h.t.app.inject({
        method: 'GET',
        url: `/api/admin/ops-dashboard?${q}`,
        headers: admin,
      });
      expect(res.statusCode, q).toBe(400);
      expect(res.json().message, q).toContain(message);
    }
    const u = await h.funded(0);
    const res = await h.t.app.inject({ method: 'GET', url: '/api/admin/ops-dashboard', headers: u.headers });
    expect([401, 403]).toContain(res.statusCode);
  });
});
