import { expect } from 'vitest';
import type { fixedClock } from '../../platform/clock.ts';
import type { createTestApp } from '../../test/test-app.ts';
import { regions } from '../hosts/hosts.tables.ts';
import { discounts } from './discounts.tables.ts';

type T = Awaited<ReturnType<typeof createTestApp>>;

export const START = new Date('2026-12-01T00:00:00.000Z');
export const END = new Date('2026-12-02T00:00:00.000Z');

/**
 * The region and rules both discount test files start from: a T4 rule there, a global one and a
 * disabled one. Returns the region's id.
 */
export async function seedDiscounts(t: T): Promise<number> {
  const [r] = await t.db.insert(regions).values({ name: '测试区', code: 'test', sortOrder: 1 }).returning();
  const regionId = r?.id as number;
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
  return regionId;
}

/**
 * The user's price at `at` for `gpuType` in the seeded region. Each file passes its own app, clock
 * and region: test files share modules in a worker (isolate: false).
 */
export function discountCalculator(
  app: () => T,
  clock: ReturnType<typeof fixedClock>,
  regionId: () => number,
) {
  return async (at: Date, gpuType = 'T4') => {
    clock.set(at);
    const res = await app().app.inject({
      method: 'GET',
      url: `/api/user/discounts/calculate?originalPrice=2&regionId=${regionId()}&gpuType=${gpuType}`,
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data;
  };
}
