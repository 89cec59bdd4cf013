import type { Balance } from '@gpu/shared/auth';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

export const balanceQueryKey = ['user', 'balance'] as const;

/** GET /user/balance: available, frozen, total. */
export const useBalance = (enabled = true) =>
  useQuery({ queryKey: balanceQueryKey, queryFn: () => api.get<Balance>('/user/balance'), enabled });
