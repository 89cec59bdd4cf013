import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixedClock } from '../../platform/clock.ts';
import { createTestApp } from '../../test/test-app.ts';
import { auditLog } from '../audit/audit.tables.ts';
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
