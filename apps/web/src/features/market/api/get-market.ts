import type { MarketList } from '@gpu/shared/market';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { type MarketFilters, marketQuery } from '../market-filters';
import { marketKeys } from './keys';

/** GET /api/gpu/market: one page of the market, discounts and package prices included. */
export const getMarket = (filters: MarketFilters, signal?: AbortSignal) =>
  api.get<MarketList>('/gpu/market', { query: marketQuery(filters), signal });

/**
 * The market page for `filters`. The previous answer stays on screen while the next loads;
 * errors stay silent (SPEC.md §8), the screen keeps what it has.
 */
export const useMarket = (filters: MarketFilters) =>
  useQuery({
    queryKey: marketKeys.list(filters),
    queryFn: ({ signal }) => getMarket(filters, signal),
    placeholderData: keepPreviousData,
    // Idle counts change as others rent GPUs: a revisit reloads.
    staleTime: 0,
  });
