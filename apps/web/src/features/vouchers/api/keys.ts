import type { VoucherStatus } from '@gpu/shared/vouchers';
import { USER_QUERY_KEY } from '../../../lib/session';

export interface VoucherListFilters {
  page: number;
  size: number;
  status?: VoucherStatus;
}

/** Query keys of the user's vouchers (under the per-user prefix). */
export const voucherKeys = {
  all: () => [...USER_QUERY_KEY, 'vouchers'] as const,
  stats: () => [...voucherKeys.all(), 'stats'] as const,
  list: (filters: VoucherListFilters) => [...voucherKeys.all(), 'list', filters] as const,
  available: (gpuType: string, regionId: number) =>
    [...voucherKeys.all(), 'available', gpuType, regionId] as const,
};
