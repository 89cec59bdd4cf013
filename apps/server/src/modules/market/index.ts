/**
 * The public face of market: what other modules may import (besides its tables files). The module's
 * definition for the app is market.module.ts.
 */
export { packagePricesOf } from './market.models.ts';
export { createMarketRepository, type MarketRow, scopeOf } from './market.repository.ts';
