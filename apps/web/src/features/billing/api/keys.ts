import { USER_QUERY_KEY } from '../../../lib/session';

/** Query keys of the account's money (under the per-user prefix). */
export const billingKeys = {
  balance: () => [...USER_QUERY_KEY, 'balance'] as const,
};

/**
 * Query keys of the console's figures and bills (refreshed whenever money moves, see
 * money-refresh.ts; here, below the bills pages and the instances that refresh them).
 */
export const billKeys = {
  all: ['bills'] as const,
  records: (q: object) => [...billKeys.all, 'records', q] as const,
  monitor: () => [...billKeys.all, 'monitor'] as const,
  daily: (days: number) => [...billKeys.all, 'daily', days] as const,
};
