import { USER_QUERY_KEY } from '../../../lib/session';

/** Query keys of the account's money (under the per-user prefix). */
export const billingKeys = {
  balance: () => [...USER_QUERY_KEY, 'balance'] as const,
};

/**
 * Query keys of the console's figures and bills (refreshed whenever money moves, see
 * money-refresh.ts; here, below the bills pages and the instances that refresh them). Under the
 * per-user prefix, so signing out drops one customer's spend before the next signs in.
 */
export const billKeys = {
  all: [...USER_QUERY_KEY, 'bills'] as const,
  records: (q: object) => [...billKeys.all, 'records', q] as const,
  monitor: () => [...billKeys.all, 'monitor'] as const,
  daily: (days: number) => [...billKeys.all, 'daily', days] as const,
};
