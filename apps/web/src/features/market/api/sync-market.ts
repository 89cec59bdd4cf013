import type { MarketSyncResult } from '@gpu/shared/market';
import { api } from '../../../lib/api-client';

/** POST /api/gpu/sync: refreshes the market from the hosts (the server runs it at most every 30 s). */
export const syncMarket = () => api.post<MarketSyncResult>('/gpu/sync');
