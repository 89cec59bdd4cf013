/**
 * The public face of pricing: what other modules may import (besides its tables files). The module's
 * definition for the app is pricing.module.ts.
 */
export { pricingErrors } from './pricing.errors.ts';
export { packagePricesColumn } from './pricing.repository.ts';
export { quoteOfRow, voucherOrderOf } from './pricing.usecases.ts';
