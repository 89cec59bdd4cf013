import type { DiscountResult } from '@gpu/shared';
import { yuanToUnits } from '@gpu/shared';
import type { Now } from '../../platform/clock.ts';
import type { Db } from '../../platform/db/client.ts';
import { deepFreeze } from '../../platform/freeze.ts';
import { bestDiscount, type DiscountRule, isActive, toDiscountResult } from './discounts.models.ts';
import { createDiscountsRepository } from './discounts.repository.ts';

/**
 * Rules change rarely and are read for every market card: keep each tenant's current rules for
 * a moment. Activity is decided at read time, so window edges stay exact while cached.
 */
const CACHE_MS = 2_000;

export type DiscountService = ReturnType<typeof createDiscountService>;

export function createDiscountService({ db, now }: { db: Db; now: Now }) {
  const repo = createDiscountsRepository({ db });
  const cache = new Map<number, { at: number; rules: Promise<DiscountRule[]> }>();

  /**
   * The tenant's rules, loaded once however many ask at once (a burst of creates after the cache
   * ran out would otherwise load them once each).
   */
  function rulesFor(tenantId: number): Promise<DiscountRule[]> {
    const t = now().getTime();
    const hit = cache.get(tenantId);
    if (hit && t - hit.at < CACHE_MS && t >= hit.at) return hit.rules;
    // Shared by every request until the cache drops them: frozen, so none can change them.
    const rules = repo.current(tenantId, new Date(t)).then(deepFreeze);
    const entry = { at: t, rules };
    cache.set(tenantId, entry);
    rules.catch(() => {
      // A failed load is not kept: the next caller tries again.
      if (cache.get(tenantId) === entry) cache.delete(tenantId);
    });
    return rules;
  }

  return {
    rulesFor,
    // A load in flight is dropped with the rest: whoever asks next loads afresh.
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
