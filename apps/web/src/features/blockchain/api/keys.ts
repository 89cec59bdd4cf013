import { authKeys } from '../../auth/api/keys';

/** Under the per-user prefix, so a sign-out drops them. */
export const blockchainKeys = {
  all: () => [...authKeys.user, 'blockchain'] as const,
  list: (page: number, size: number) => [...blockchainKeys.all(), 'orders', page, size] as const,
  stats: () => [...blockchainKeys.all(), 'stats'] as const,
};
