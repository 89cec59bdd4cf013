/** Query keys of the console's figures and bills (refreshed whenever money moves). */
export const billKeys = {
  all: ['bills'] as const,
  records: (q: object) => [...billKeys.all, 'records', q] as const,
  monitor: () => [...billKeys.all, 'monitor'] as const,
  daily: (days: number) => [...billKeys.all, 'daily', days] as const,
};
