import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

export interface VoucherStats {
  totalValue: number;
}

export const voucherStatsQueryKey = ['user', 'vouchers', 'stats'] as const;

/** GET /user/vouchers/stats: the voucher total shown in the account menu. */
export const useVoucherStats = (enabled = true) =>
  useQuery({
    queryKey: voucherStatsQueryKey,
    queryFn: () => api.get<VoucherStats>('/user/vouchers/stats'),
    enabled,
  });
