import { type MarketFilters, marketQuery } from '../market-filters';

/** Query keys of the market (also refreshed after a purchase, which takes GPUs off it). */
export const marketKeys = {
  all: ['market'] as const,
  list: (filters: MarketFilters) => [...marketKeys.all, 'list', marketQuery(filters)] as const,
  overseasStatus: () => [...marketKeys.all, 'overseas-status'] as const,
};
