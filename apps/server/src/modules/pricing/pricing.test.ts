import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixedClock } from '../../platform/clock.ts';
import { createTestApp } from '../../test/test-app.ts';
import { hosts } from '../hosts/hosts.tables.ts';
import { postLedgerEntry, reconcileAccount } from '../ledger/ledger.ts';

const clock = fixedClock('2026-11-22T08:00:00Z');
let t: Awaited<ReturnType<typeof createTestApp>>;
let items: { id: number; hostName: string; gpuIdleNum: number }[] = [];

beforeAll(async () => {
  t = await createTestApp({ clock });
  items = (await t.app.inject({ method: 'GET', url: '/api/gpu/market?size=48' })).json().data.list;
});
afterAll(() => t.close());

const idOf = (host: string) => items.find((i) => i.hostName === host)?.id as number;
const calc = (body: Record<string, unknown>, host = 'localhost') =>
  t.app.inject({
    method: 'POST',
    url: '/api/v2/package-billing/calculate-price',
    payload: body,
    headers: { 'x-tenant-host': host },
  });

describe('package pricing config', () => {
  it('lists all and by GPU type', async () => {
    const all = (await t.app.inject({ method: 'GET', url: '/api/v2/package-billing/pricing/all' })).json()
      .data;
    expect(all).toEqual([
      expect.objectContaining({
        gpuType: 'A100 80GB',
        platform: 'local',
        dailyPrice: 150,
        weeklyPrice: 900,
        monthlyPrice: 3300,
      }),
    ]);
    const a100 = await t.app.inject({
      method: 'GET',
      url: '/api/v2/package-billing/pricing/by-gpu?gpuType=A100%2080GB',
    });
    expect(a100.json().data).toHaveLength(1);
    const none = await t.app.inject({
      method: 'GET',
      url: '/api/v2/package-billing/pricing/by-gpu?gpuType=T4',
    });
    expect(none.json().data).toEqual([]);
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/v2/package-billing/pricing/by-gpu' })).statusCode,
    ).toBe(400);
  });
});

describe('calculate-price', () => {
  it('configured package price with the active discount', async () => {
    const res = await calc({
      machineId: idOf('bj-a-a100-01'),
      billingType: 'weekly',
      duration: 2,
      gpuAmount: 3,
    });
    expect(res.json().data).toEqual({
      billingType: 'weekly',
      duration: 2,
      gpuAmount: 3,
      unitPrice: 900,
      discountedUnitPrice: 810,
      originalAmount: 5400,
      discountAmount: 540,
      voucherDeduction: 0,
      payableAmount: 4860,
      discountRate: 0.9,
      discountEndTime: expect.any(String),
    });
  });

  it('falls back to SPEC factors without a config', async () => {
    const res = await calc({
      machineId: idOf('nm-a-l40s-01'),
      billingType: 'monthly',
      duration: 1,
      gpuAmount: 1,
    });
    expect(res.json().data).toMatchObject({
      unitPrice: 3.98 * 0.65 * 720,
      payableAmount: 3.98 * 0.65 * 720,
      discountRate: 1,
    });
  });

  it('hourly: one hour of every GPU is what must be available', async () => {
    const res = await calc({ machineId: idOf('ah-a-4090-01'), billingType: 'hourly', gpuAmount: 2 });
    expect(res.json().data).toMatchObject({
      unitPrice: 1.98,
      discountedUnitPrice: 1.58, // 1.584 rounded half up to whole fen, then × 2 GPUs (issue 10)
      payableAmount: 3.16,
      duration: 1,
    });
  });

  it('market card, calculate-price and create agree on whole fen: 1.98/h daily fallback at 8折 is 32.31, not 32.3136', async () => {
    const market = (
      await t.app.inject({ method: 'GET', url: '/api/gpu/market?size=48&billingType=daily' })
    ).json().data.list as { hostName: string; packagePrice: number; packageDiscountPrice: number }[];
    const card = market.find((i) => i.hostName === 'ah-a-4090-01');
    expect(card).toMatchObject({ packagePrice: 40.39, packageDiscountPrice: 32.31 });
    const quote = (
      await calc({ machineId: idOf('ah-a-4090-01'), billingType: 'daily', duration: 1, gpuAmount: 1 })
    ).json().data;
    expect(quote).toMatchObject({ unitPrice: 40.39, discountedUnitPrice: 32.31, payableAmount: 32.31 });
    const u = await t.createUser({ host: 'localhost' });
    await t.db.transaction((tx) =>
      postLedgerEntry(tx, {
        userId: u.user.id,
        kind: 'recharge',
        amount: 1_000_000,
        idempotencyKey: `t:${u.user.id}`,
      }),
    );
    await t.db.update(hosts).set({ settings: sql`${hosts.settings} || '{"latencyMs":0}'::jsonb` });
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/gpu/instance/create',
      headers: u.headers,
      payload: {
        machineId: idOf('ah-a-4090-01'),
        instanceName: 'agree',
        image: 'registry.gpu.local/pytorch:2.5.1-py3.12-cuda12.4',
        gpuAmount: 1,
        billingType: 'daily',
        duration: 1,
      },
    });
    expect(created.statusCode, created.body).toBe(200);
    expect((await reconcileAccount(t.db, u.user.id)).available).toBe(1_000_000 - 323_100);
  });

  it('stops applying a discount the moment it ends', async () => {
    clock.advance(10 * 60_000);
    const res = await calc({ machineId: idOf('ah-a-4090-01'), billingType: 'hourly', gpuAmount: 1 });
    expect(res.json().data).toMatchObject({ payableAmount: 1.98, discountRate: 1 });
    clock.set('2026-11-22T08:00:00Z');
  });

  it.each([
    [{ billingType: 'daily', duration: 7, gpuAmount: 1 }, '时长须为1-6天'],
    [{ billingType: 'weekly', duration: 4, gpuAmount: 1 }, '时长须为1-3周'],
    [{ billingType: 'monthly', duration: 0, gpuAmount: 1 }, '时长须为1-3个月'],
    [{ billingType: 'daily', duration: 1.5, gpuAmount: 1 }, '时长必须为整数'],
    [{ billingType: 'daily', duration: 1, gpuAmount: 9 }, 'GPU数量最多为8'],
    [{ billingType: 'yearly', duration: 1, gpuAmount: 1 }, '计费方式'],
  ])('%o → 400 %s', async (body, message) => {
    const res = await calc({ machineId: idOf('nm-a-l40s-01'), ...body });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toContain(message);
  });

  it('refuses more GPUs than are idle, unknown machines and machines of other tenants', async () => {
    const h100 = await calc({ machineId: idOf('gd-b-h100-01'), billingType: 'hourly', gpuAmount: 3 });
    expect(h100.statusCode).toBe(422);
    expect(h100.json().message).toContain('仅剩2张');
    expect((await calc({ machineId: 99_999, billingType: 'hourly', gpuAmount: 1 })).statusCode).toBe(404);
    const hidden = await calc(
      { machineId: idOf('nm-a-l40s-01'), billingType: 'hourly', gpuAmount: 1 },
      '127.0.0.1',
    );
    expect(hidden.statusCode).toBe(404);
    expect(hidden.json().message).toBe('未找到指定的GPU资源');
  });

  it("needs the user's token to apply a voucher", async () => {
    const res = await calc({
      machineId: idOf('nm-a-l40s-01'),
      billingType: 'daily',
      duration: 1,
      gpuAmount: 1,
      voucherId: 5,
    });
    expect(res.statusCode).toBe(401);
  });
});
