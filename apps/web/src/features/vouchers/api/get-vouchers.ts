import type { Page } from '@gpu/shared/envelope';
import type { VoucherView } from '@gpu/shared/vouchers';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { type VoucherListFilters, voucherKeys } from './keys';

export type { VoucherListFilters };

/** GET /user/vouchers (1-based pages): the user's vouchers, soonest expiry first. */
export const useVouchers = (filters: VoucherListFilters) =>
  useQuery({
    queryKey: voucherKeys.list(filters),
    queryFn: ({ signal }) => api.get<Page<VoucherView>>('/user/vouchers', { query: { ...filters }, signal }),
    placeholderData: keepPreviousData,
  });
