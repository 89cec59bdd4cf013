/**
 * The public face of discounts: what other modules may import (besides its tables files). The module's
 * definition for the app is discounts.module.ts.
 */
export { bestDiscount, type DiscountRule, toDiscountResult } from './discounts.models.ts';
export type { DiscountService } from './discounts.usecases.ts';
