import type { MarketSyncAnswer } from '@gpu/shared/market';
import { api } from '../../../lib/api-client';

/**
 * POST /api/gpu/sync: refreshes the market from the hosts (the server runs it at most every 30 s).
 * Signed-in customers only; a session that ran out meanwhile stays on the market (no 401 redirect).
 */
export const syncMarket = () =>
  api.post<MarketSyncAnswer>('/gpu/sync', undefined, { quietUnauthorized: true });
