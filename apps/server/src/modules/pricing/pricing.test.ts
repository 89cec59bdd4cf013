import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixedClock } from '../../app/clock.ts';
import { createTestApp } from '../../app/db/test-utils.ts';

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
      discountedUnitPrice: 1.584,
      payableAmount: 3.168,
      duration: 1,
    });
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

  it('has no vouchers to apply yet', async () => {
    const res = await calc({
      machineId: idOf('nm-a-l40s-01'),
      billingType: 'daily',
      duration: 1,
      gpuAmount: 1,
      voucherId: 5,
    });
    expect(res.statusCode).toBe(422);
  });
});
