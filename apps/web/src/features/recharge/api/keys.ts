import type { RechargeOrderFilters } from './get-recharge-orders';

export const rechargeOrderKeys = {
  all: ['recharge', 'orders'] as const,
  list: (filters: RechargeOrderFilters) => [...rechargeOrderKeys.all, filters] as const,
};
