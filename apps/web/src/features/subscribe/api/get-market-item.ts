import { MARKET_PAGE_SIZES } from '@gpu/shared/constants';
import type { MarketItem, MarketList } from '@gpu/shared/market';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { subscribeKeys } from './keys';

const PAGE_SIZE = MARKET_PAGE_SIZES[MARKET_PAGE_SIZES.length - 1] ?? 48;
/** A market bigger than this many pages is not looked through. */
const MAX_PAGES = 20;

/** `gpu-12` (or a bare 12, as old links carry it) names a market item. */
export const matchesSku = (item: MarketItem, skuGpuId: string) =>
  item.skuGpuId === skuGpuId || (/^\d+$/.test(skuGpuId) && item.skuGpuId === `gpu-${skuGpuId}`);

/**
 * The market item behind `skuGpuId`, read from GET /api/gpu/market (largest pages, until
 * found); null when the market does not have it (sold out, hidden from this tenant, wrong id).
 */
export async function findMarketItem(skuGpuId: string, signal?: AbortSignal): Promise<MarketItem | null> {
  for (let page = 1; page <= MAX_PAGES; page++) {
    const data = await api.get<MarketList>('/gpu/market', { query: { page, size: PAGE_SIZE }, signal });
    const found = data.list.find((item) => matchesSku(item, skuGpuId));
    if (found) return found;
    if (page * PAGE_SIZE >= data.total || data.list.length === 0) return null;
  }
  return null;
}

export const useMarketItem = (skuGpuId: string) =>
  useQuery({
    queryKey: subscribeKeys.item(skuGpuId),
    queryFn: ({ signal }) => findMarketItem(skuGpuId, signal),
    enabled: skuGpuId !== '',
    // Idle counts move as others rent GPUs: every visit reads them afresh.
    staleTime: 0,
  });
