import type { AggregateCache } from '../../platform/aggregate-cache.ts';
import type { Now } from '../../platform/clock.ts';
import type { Db } from '../../platform/db/client.ts';
import type { DiscountService } from './discounts.usecases.ts';

export interface DiscountsDeps {
  db: Db;
  now: Now;
  /** The tenants' rules, cached per process (the market and quotes apply them). */
  service: DiscountService;
  /** Drops what shows discounted prices (the market, above this module) after a rule changes. */
  changed: () => void;
  /** The dashboard's figures over whole tables, reused for a short while (issue 33). */
  stats: AggregateCache;
}
