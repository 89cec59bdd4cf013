import type { RechargeOrderStatus } from '@gpu/shared/labels';

export interface RechargeOrderFilters {
  page: number;
  size: number;
  status?: RechargeOrderStatus;
  /** YYYY-MM-DD (China days), inclusive. */
  startDate?: string;
  endDate?: string;
}

export const rechargeOrderKeys = {
  all: ['recharge', 'orders'] as const,
  list: (filters: RechargeOrderFilters) => [...rechargeOrderKeys.all, filters] as const,
};
