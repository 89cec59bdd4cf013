import { defineModule } from '../../platform/module.ts';
import type { DiscountService } from '../discounts/index.ts';
import type { PricingDeps } from './pricing.deps.ts';
import { pricingRoutes } from './pricing.routes.ts';

/** Package prices and the price quote (discounts and a voucher applied). */
export const pricingModule = defineModule({
  name: 'pricing',
  createDeps: (core, needs: { discounts: DiscountService }): PricingDeps => ({
    db: core.db,
    now: () => core.clock.now(),
    discounts: needs.discounts,
  }),
  register: (app, deps) => pricingRoutes(app, deps),
});
