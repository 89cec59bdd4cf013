import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixedClock } from '../../platform/clock.ts';
import { createTestApp } from '../../test/test-app.ts';
import { bestDiscount, type DiscountRule } from './discounts.models.ts';
import { discountCalculator, END, START, seedDiscounts } from './discounts.test-helpers.ts';

const clock = fixedClock(START);
let t: Awaited<ReturnType<typeof createTestApp>>;
let regionId = 0;

beforeAll(async () => {
  t = await createTestApp({ clock, demo: false });
  regionId = await seedDiscounts(t);
});
afterAll(() => t.close());

const calc = discountCalculator(
  () => t,
  clock,
  () => regionId,
);

describe('discount windows at their edges', () => {
  it('start − 1 ms: none', async () => {
    expect(await calc(new Date(START.getTime() - 1))).toMatchObject({
      hasDiscount: false,
      discountPrice: 2,
      discountRate: 1,
    });
  });
  it('start: the lowest active rate wins', async () => {
    expect(await calc(START)).toEqual({
      originalPrice: 2,
      discountPrice: 1.5,
      discountRate: 0.75,
      hasDiscount: true,
      discountDescription: '测试区 T4 七五折',
      endTime: END.toISOString(),
    });
  });
  it('end − 1 ms: still on', async () => {
    expect((await calc(new Date(END.getTime() - 1))).discountRate).toBe(0.75);
  });
  it('end: falls back to the next active rule', async () => {
    expect(await calc(END)).toMatchObject({
      discountRate: 0.9,
      discountPrice: 1.8,
      discountDescription: '全场九折',
    });
  });
  it('other models only match the global rule; disabled rules never', async () => {
    expect((await calc(START, 'A10')).discountRate).toBe(0.9);
  });
});

describe('discount endpoints', () => {
  it('lists the active discounts', async () => {
    clock.set(START);
    const res = await t.app.inject({ method: 'GET', url: '/api/user/discounts' });
    expect(
      res
        .json()
        .data.map((d: { name: string }) => d.name)
        .sort(),
    ).toEqual(['全场九折', '双十二']);
  });

  it('calculates a batch keyed by gpuId', async () => {
    clock.set(START);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/user/discounts/calculate/batch',
      payload: [
        { gpuId: 'gpu-1', originalPrice: 2, regionId, gpuType: 'T4' },
        { gpuId: 7, originalPrice: 10, regionId, gpuType: 'A10' },
      ],
    });
    const data = res.json().data;
    expect(Object.keys(data).sort()).toEqual(['7', 'gpu-1']);
    expect(data['gpu-1'].discountPrice).toBe(1.5);
    expect(data['7'].discountPrice).toBe(9);
  });

  it.each([
    '?originalPrice=abc&regionId=1&gpuType=T4',
    '?originalPrice=-1&regionId=1&gpuType=T4',
    '?originalPrice=1&regionId=x&gpuType=T4',
    '?originalPrice=1&regionId=1',
  ])('rejects %s with a 400', async (q) => {
    const res = await t.app.inject({ method: 'GET', url: `/api/user/discounts/calculate${q}` });
    expect(res.statusCode).toBe(400);
  });
});

describe('bestDiscount', () => {
  const rule = (p: Partial<DiscountRule>): DiscountRule => ({
    id: 1,
    tenantId: null,
    regionId: null,
    gpuModel: null,
    name: 'r',
    description: '',
    rateBp: 9_000,
    startsAt: START,
    endsAt: END,
    enabled: true,
    ...p,
  });
  it('respects the tenant scope and breaks ties by the earliest end', () => {
    const target = { tenantId: 2, regionId: 1, gpuModel: 'T4' };
    const rules = [
      rule({ id: 1, tenantId: 3, rateBp: 5_000 }),
      rule({ id: 2, rateBp: 8_000, endsAt: new Date(END.getTime() + 1) }),
      rule({ id: 3, rateBp: 8_000 }),
    ];
    expect(bestDiscount(rules, target, START)?.id).toBe(3);
  });
});

describe('the rules cache', () => {
  it('loads a tenant’s rules once however many ask at once, and afresh after invalidate', async () => {
    const service = t.app.deps.modules.discounts.service;
    service.invalidate();
    const burst = await Promise.all(Array.from({ length: 20 }, () => service.rulesFor(1)));
    // One load answered them all: the very same array.
    expect(new Set(burst).size).toBe(1);
    expect(burst[0]?.map((r) => r.name)).toEqual(expect.arrayContaining(['全场九折', '双十二']));
    service.invalidate();
    const after = await service.rulesFor(1);
    expect(after).not.toBe(burst[0]);
    expect(after).toEqual(burst[0]);
  });
});
