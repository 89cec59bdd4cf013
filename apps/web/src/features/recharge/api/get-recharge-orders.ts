import type { Page } from '@gpu/shared/envelope';
import type { RechargeOrder } from '@gpu/shared/payments';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import type { RechargeOrderFilters } from './keys';
import { rechargeOrderKeys } from './keys';

export type { RechargeOrderFilters };

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
