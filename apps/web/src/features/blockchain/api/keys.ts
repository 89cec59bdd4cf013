import { USER_QUERY_KEY } from '../../../lib/session';

/** Under the per-user prefix, so a sign-out drops them. */
export const blockchainKeys = {
  all: () => [...USER_QUERY_KEY, 'blockchain'] as const,
  list: (page: number, size: number) => [...blockchainKeys.all(), 'orders', page, size] as const,
  stats: () => [...blockchainKeys.all(), 'stats'] as const,
  networks: () => [...blockchainKeys.all(), 'networks'] as const,
};
