import type { Now } from '../../platform/clock.ts';
import type { Db } from '../../platform/db/client.ts';
import type { DiscountService } from '../discounts/index.ts';

export interface PricingDeps {
  db: Db;
  now: Now;
  discounts: DiscountService;
}
