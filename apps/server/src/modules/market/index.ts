/**
 * The public face of market: what other modules may import (besides its tables files). The module's
 * definition for the app is market.module.ts.
 */

export { usableImage } from './images.repository.ts';
export { packagePricesOf } from './market.models.ts';
export {
  createMarketRepository,
  type MarketRow,
  marketRowsQuery,
  scopeOf,
  type TenantScope,
} from './market.repository.ts';
export type { MarketCatalog } from './market.usecases.ts';
