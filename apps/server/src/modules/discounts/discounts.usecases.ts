import type { DiscountResult } from '@gpu/shared';
import { yuanToUnits } from '@gpu/shared';
import type { Db } from '../../app/db/client.ts';
import { bestDiscount, type DiscountRule, isActive, toDiscountResult } from './discounts.models.ts';
import { createDiscountsRepository } from './discounts.repository.ts';

/**
 * Rules change rarely and are read for every market card: keep each tenant's current rules for
 * a moment. Activity is decided at read time, so window edges stay exact while cached.
 */
const CACHE_MS = 2_000;

export type DiscountService = ReturnType<typeof createDiscountService>;

export function createDiscountService({ db, now }: { db: Db; now: () => Date }) {
  const repo = createDiscountsRepository({ db });
  const cache = new Map<number, { at: number; rules: DiscountRule[] }>();

  async function rulesFor(tenantId: number): Promise<DiscountRule[]> {
    const t = now();
    const hit = cache.get(tenantId);
    if (hit && t.getTime() - hit.at < CACHE_MS && t.getTime() >= hit.at) return hit.rules;
    const rules = await repo.current(tenantId, t);
    cache.set(tenantId, { at: t.getTime(), rules });
    return rules;
  }

  return {
    rulesFor,
    invalidate: () => cache.clear(),
    async active(tenantId: number): Promise<DiscountRule[]> {
      const t = now();
      return (await rulesFor(tenantId)).filter((r) => isActive(r, t));
    },
    async calculate(
      tenantId: number,
      q: { originalPrice: number; regionId: number; gpuType: string },
    ): Promise<DiscountResult> {
      const rule = bestDiscount(
        await rulesFor(tenantId),
        { tenantId, regionId: q.regionId, gpuModel: q.gpuType },
        now(),
      );
      return toDiscountResult(yuanToUnits(q.originalPrice), rule);
    },
  };
}
