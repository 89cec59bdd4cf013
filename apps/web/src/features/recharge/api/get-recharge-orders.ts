import type { Page } from '@gpu/shared/envelope';
import type { RechargeOrderStatus } from '@gpu/shared/labels';
import type { RechargeOrder } from '@gpu/shared/payments';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { rechargeOrderKeys } from './keys';

export interface RechargeOrderFilters {
  page: number;
  size: number;
  status?: RechargeOrderStatus;
  /** YYYY-MM-DD (China days), inclusive. */
  startDate?: string;
  endDate?: string;
}

/** GET /recharge/orders (1-based pages): the user's recharge orders, newest first. */
export const getRechargeOrders = (filters: RechargeOrderFilters, signal?: AbortSignal) =>
  api.get<Page<RechargeOrder>>('/recharge/orders', { query: { ...filters }, signal });

export const useRechargeOrders = (filters: RechargeOrderFilters) =>
  useQuery({
    queryKey: rechargeOrderKeys.list(filters),
    queryFn: ({ signal }) => getRechargeOrders(filters, signal),
    placeholderData: keepPreviousData,
    staleTime: 5_000,
  });
