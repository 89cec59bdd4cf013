import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { voucherKeys } from './keys';

export interface VoucherStats {
  totalValue: number;
}

/** GET /user/vouchers/stats: the voucher total shown in the account menu. */
export const useVoucherStats = (enabled = true) =>
  useQuery({
    queryKey: voucherKeys.stats(),
    queryFn: () => api.get<VoucherStats>('/user/vouchers/stats'),
    enabled,
  });
