import { createAggregateCache } from '../../platform/aggregate-cache.ts';
import { defineModule } from '../../platform/module.ts';
import { discountAdminRoutes } from './admin.routes.ts';
import type { DiscountsDeps } from './discounts.deps.ts';
import { discountsRoutes } from './discounts.routes.ts';
import { createDiscountService } from './discounts.usecases.ts';

/** Discount rules: the customers' list of running ones and the back office's editor. */
export const discountsModule = defineModule({
  name: 'discounts',
  createDeps: (core, needs: { changed: () => void; statsTtlMs: number }): DiscountsDeps => {
    const now = () => core.clock.now();
    return {
      db: core.db,
      now,
      service: createDiscountService({ db: core.db, now }),
      changed: needs.changed,
      stats: createAggregateCache({ ttlMs: needs.statsTtlMs, now }),
    };
  },
  register: async (app, deps) => {
    await discountsRoutes(app, deps);
    await discountAdminRoutes(app, deps);
  },
});
