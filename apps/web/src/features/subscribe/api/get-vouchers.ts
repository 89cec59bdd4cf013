import { VOUCHER_LIST_SIZE } from '@gpu/shared/constants';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { voucherKeys } from '../../vouchers';
import { normalizeVouchers, type Voucher } from '../vouchers';

/**
 * GET /api/user/vouchers/available (SPEC.md §7: page 0, size 100, GPU type, region). A failure
 * is an error ('加载代金券失败'), never an empty list.
 */
export async function getAvailableVouchers(
  order: { gpuType: string; regionId: number },
  signal?: AbortSignal,
): Promise<Voucher[]> {
  const data = await api.get<unknown>('/user/vouchers/available', {
    query: { page: 0, size: VOUCHER_LIST_SIZE, gpuType: order.gpuType, regionId: order.regionId },
    signal,
  });
  return normalizeVouchers(data);
}

export const useAvailableVouchers = (order: { gpuType: string; regionId: number }) =>
  useQuery({
    queryKey: voucherKeys.available(order.gpuType, order.regionId),
    queryFn: ({ signal }) => getAvailableVouchers(order, signal),
    retry: false,
  });
