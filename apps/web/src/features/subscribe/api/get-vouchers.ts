import { VOUCHER_LIST_SIZE } from '@gpu/shared/constants';
import { useQuery } from '@tanstack/react-query';
import { ApiError, api } from '../../../lib/api-client';
import { voucherKeys } from '../../vouchers/api/keys';
import { normalizeVouchers, type Voucher } from '../vouchers';

/**
 * GET /api/user/vouchers/available (SPEC.md §7: page 0, size 100, GPU type, region). Until the
 * voucher feature lands the server answers 404: that is an empty list, not an error.
 */
export async function getAvailableVouchers(
  order: { gpuType: string; regionId: number },
  signal?: AbortSignal,
): Promise<Voucher[]> {
  try {
    const data = await api.get<unknown>('/user/vouchers/available', {
      query: { page: 0, size: VOUCHER_LIST_SIZE, gpuType: order.gpuType, regionId: order.regionId },
      signal,
    });
    return normalizeVouchers(data);
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) return [];
    throw err;
  }
}

export const useAvailableVouchers = (order: { gpuType: string; regionId: number }) =>
  useQuery({
    queryKey: voucherKeys.available(order.gpuType, order.regionId),
    queryFn: ({ signal }) => getAvailableVouchers(order, signal),
    retry: false,
  });
