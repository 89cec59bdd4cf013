import type { VoucherStats } from '@gpu/shared/vouchers';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { voucherKeys } from './keys';

export type { VoucherStats };

/** GET /user/vouchers/stats: the voucher total of the account menu and the cards of /console/vouchers. */
export const useVoucherStats = (enabled = true, refetchInterval?: number) =>
  useQuery({
    queryKey: voucherKeys.stats(),
    queryFn: () => api.get<VoucherStats>('/user/vouchers/stats'),
    enabled,
    refetchInterval,
  });
