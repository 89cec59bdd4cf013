import type { Balance } from '@gpu/shared/auth';
import type { Page } from '@gpu/shared/envelope';
import type { BalanceCheckResult, BalanceHealth, BalanceStats, BalanceWarning } from '@gpu/shared/operations';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { opsKeys } from './keys';

export const useBalanceWarnings = (q: { hours: number; page: number; size: number }) =>
  useQuery({
    queryKey: opsKeys.warnings(q),
    queryFn: ({ signal }) => api.get<Page<BalanceWarning>>('/admin/balance/warnings', { query: q, signal }),
    placeholderData: keepPreviousData,
  });

export const useBalanceStats = () =>
  useQuery({
    queryKey: opsKeys.balanceStats(),
    queryFn: ({ signal }) => api.get<BalanceStats>('/admin/balance/stats', { signal }),
  });

export const useBalanceHealth = () =>
  useQuery({
    queryKey: opsKeys.health(),
    queryFn: ({ signal }) => api.get<BalanceHealth>('/admin/balance/health', { signal }),
  });

/** POST /admin/balance/check: the audited manual check; its answer replaces the health shown. */
export function useBalanceCheck() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api.post<BalanceCheckResult>('/admin/balance/check'),
    onSuccess: (result) => {
      queryClient.setQueryData(opsKeys.health(), result);
      void queryClient.invalidateQueries({ queryKey: opsKeys.balance() });
    },
  });
}

export interface AdjustmentInput {
  userId: number;
  amount: number;
  reason: string;
  requestId: string;
}

/** POST /admin/users/{id}/balance-adjustment (a retried click with the same requestId counts once). */
export function useBalanceAdjustment() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ userId, ...body }: AdjustmentInput) =>
      api.post<Balance>(`/admin/users/${userId}/balance-adjustment`, body),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: opsKeys.all() }),
  });
}
