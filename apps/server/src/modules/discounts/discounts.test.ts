import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixedClock } from '../../platform/clock.ts';
import { createTestApp } from '../../test/test-app.ts';
import { auditLog } from '../audit/audit.tables.ts';
import { regions } from '../hosts/hosts.tables.ts';
import { bestDiscount, type DiscountRule } from './discounts.models.ts';
import { discounts } from './discounts.tables.ts';

const START = new Date('2026-12-01T00:00:00.000Z');
const END = new Date('2026-12-02T00:00:00.000Z');
const clock = fixedClock(START);
let t: Awaited<ReturnType<typeof createTestApp>>;
let regionId = 0;

beforeAll(async () => {
  t = await createTestApp({ clock, demo: false });
  const [r] = await t.db.insert(regions).values({ name: '测试区', code: 'test', sortOrder: 1 }).returning();
  regionId = r?.id as number;
  await t.db.insert(discounts).values([
    {
      name: '双十二',
      description: '测试区 T4 七五折',
      regionId,
      gpuModel: 'T4',
      rateBp: 7_500,
      startsAt: START,
      endsAt: END,
    },
    {
      name: '全场九折',
      regionId: null,
      gpuModel: null,
      rateBp: 9_000,
      startsAt: START,
      endsAt: new Date('2027-01-01T00:00:00Z'),
    },
    { name: '停用的', gpuModel: 'T4', rateBp: 1_000, startsAt: START, endsAt: END, enabled: false },
  ]);
});
afterAll(() => t.close());

const calc = async (at: Date, gpuType = 'T4') => {
  clock.set(at);
  const res = await t.app.inject({
    method: 'GET',
    url: `/api/user/discounts/calculate?originalPrice=2&regionId=${regionId}&gpuType=${gpuType}`,
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data;
};

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

describe('admin discounts: filters, update, unknown ids', () => {
  const admin = () => t.adminHeaders();
  const names = async (query: string) => {
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/admin/discounts${query}`,
      headers: await admin(),
    });
    expect(res.statusCode, res.body).toBe(200);
    const page = res.json().data as { total: number; list: { name: string; state: string }[] };
    expect(page.total).toBe(page.list.length);
    return page.list.map((d) => d.name).sort();
  };

  it('filters the list by keyword, region, GPU type and state', async () => {
    clock.set(START);
    const pending = await t.app.inject({
      method: 'POST',
      url: '/api/admin/discounts',
      headers: await admin(),
      payload: {
        name: '元旦预告',
        discountRate: 0.85,
        gpuType: 'A10',
        startTime: '2026-12-20T00:00:00Z',
        endTime: '2027-01-05T00:00:00Z',
      },
    });
    expect(pending.statusCode, pending.body).toBe(200);
    expect(pending.json().data.state).toBe('PENDING');
    expect(await names('')).toEqual(['停用的', '元旦预告', '全场九折', '双十二']);
    expect(await names(`?keyword=${encodeURIComponent('十二')}`)).toEqual(['双十二']);
    expect(await names(`?regionId=${regionId}`)).toEqual(['双十二']);
    expect(await names('?gpuType=t4')).toEqual(['停用的', '双十二']);
    expect(await names('?state=ACTIVE')).toEqual(['全场九折', '双十二']);
    expect(await names('?state=PENDING')).toEqual(['元旦预告']);
    expect(await names('?state=DISABLED')).toEqual(['停用的']);
    expect(await names('?state=ENDED')).toEqual([]);
    expect(await names(`?state=ACTIVE&gpuType=T4&regionId=${regionId}`)).toEqual(['双十二']);
    // At the 双十二 end it has ENDED; the pending one starts later.
    clock.set(END);
    expect(await names('?state=ENDED')).toEqual(['双十二']);
    expect(await names('?state=ACTIVE')).toEqual(['全场九折']);
    const bad = await t.app.inject({
      method: 'GET',
      url: '/api/admin/discounts?state=SOON',
      headers: await admin(),
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toContain('状态无效');
    clock.set(START);
  });

  it('updates a discount: the list, the calculation and the audit log follow', async () => {
    clock.set(START);
    const headers = await admin();
    const made = await t.app.inject({
      method: 'POST',
      url: '/api/admin/discounts',
      headers,
      payload: {
        name: 'A10 八折',
        discountRate: 0.8,
        gpuType: 'A10',
        startTime: START.toISOString(),
        endTime: '2027-01-01T00:00:00Z',
      },
    });
    const id = made.json().data.id as number;
    expect((await calc(START, 'A10')).discountRate).toBe(0.8);
    const res = await t.app.inject({
      method: 'PUT',
      url: `/api/admin/discounts/${id}`,
      headers,
      payload: {
        name: 'A10 七折',
        description: '测试区 A10',
        discountRate: 0.7,
        regionId,
        gpuType: 'A10',
        startTime: START.toISOString(),
        endTime: END.toISOString(),
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({
      id,
      name: 'A10 七折',
      description: '测试区 A10',
      discountRate: 0.7,
      regionId,
      regionName: '测试区',
      gpuType: 'A10',
      endTime: END.toISOString(),
      state: 'ACTIVE',
    });
    expect(await calc(START, 'A10')).toMatchObject({ discountRate: 0.7, discountDescription: '测试区 A10' });
    // Its new end applies: from END the global 九折 is back for A10.
    expect((await calc(END, 'A10')).discountRate).toBe(0.9);
    clock.set(START);
    const [audit] = await t.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'discount.update'), eq(auditLog.target, `discount:${id}`)));
    expect(audit?.detail).toMatchObject({ before: { rateBp: 8_000 }, after: { rateBp: 7_000, regionId } });

    const noRegion = await t.app.inject({
      method: 'PUT',
      url: `/api/admin/discounts/${id}`,
      headers,
      payload: {
        name: 'x',
        discountRate: 0.5,
        regionId: 999_999,
        startTime: START.toISOString(),
        endTime: END.toISOString(),
      },
    });
    expect(noRegion.statusCode).toBe(422);
    expect(noRegion.json().message).toBe('地区不存在');
    const backwards = await t.app.inject({
      method: 'PUT',
      url: `/api/admin/discounts/${id}`,
      headers,
      payload: { name: 'x', discountRate: 0.5, startTime: END.toISOString(), endTime: START.toISOString() },
    });
    expect(backwards.statusCode).toBe(400);
    expect(backwards.json().message).toContain('结束时间必须晚于开始时间');
    expect((await calc(START, 'A10')).discountRate).toBe(0.7);
    await t.app.inject({ method: 'DELETE', url: `/api/admin/discounts/${id}`, headers });
  });

  it('answers 404 in Chinese for an unknown discount', async () => {
    const headers = await admin();
    const body = { name: 'x', discountRate: 0.5, startTime: START.toISOString(), endTime: END.toISOString() };
    for (const [method, url, payload] of [
      ['PUT', '/api/admin/discounts/999999', body],
      ['PUT', '/api/admin/discounts/999999/status', { enabled: false }],
      ['DELETE', '/api/admin/discounts/999999', undefined],
    ] as const) {
      const res = await t.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });
      expect(res.statusCode, `${method} ${url}`).toBe(404);
      expect(res.json().message).toBe('折扣活动不存在');
    }
  });
});

describe('the rules cache', () => {
  it('loads a tenant’s rules once however many ask at once, and afresh after invalidate', async () => {
    const service = t.app.deps.services.discounts;
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
