import { ADMIN_QUERY_KEY } from '../../../lib/session';

/** Query keys of the admin promotion screens (under the admin prefix, dropped at admin login). */
export const promotionKeys = {
  all: () => [...ADMIN_QUERY_KEY, 'promotions'] as const,
  scopes: () => [...promotionKeys.all(), 'scopes'] as const,
  dashboard: () => [...promotionKeys.all(), 'dashboard'] as const,
  discounts: (q: object) => [...promotionKeys.all(), 'discounts', q] as const,
  configs: (q: object) => [...promotionKeys.all(), 'voucher-configs', q] as const,
  history: (q: object) => [...promotionKeys.all(), 'distributions', q] as const,
  distribution: (id: number) => [...promotionKeys.all(), 'distribution', id] as const,
};
