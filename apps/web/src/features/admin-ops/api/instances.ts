import type { Page } from '@gpu/shared/envelope';
import type {
  AdminInstance,
  AdminInstanceActionName,
  AdminInstanceListQuery,
  InstanceMonitorStatistics,
} from '@gpu/shared/operations';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { isTransitional, POLL_FAST_MS } from '../../instances';
import { opsKeys } from './keys';

export type InstanceFilters = Partial<AdminInstanceListQuery> & { page: number; size: number };
export type OpsAction = AdminInstanceActionName | 'force-stop';

/**
 * A user's instances (user management) or every user's (实例管理): both the same server-side
 * list, filtered by status, billing type, host and keyword.
 */
export const useAdminInstances = (kind: 'user' | 'all', q: InstanceFilters, enabled = true) =>
  useQuery({
    queryKey: opsKeys.instanceList(kind, q),
    queryFn: ({ signal }) =>
      api.get<Page<AdminInstance>>('/admin/user-management/instances', { query: { ...q }, signal }),
    placeholderData: keepPreviousData,
    enabled,
    // A power action is a job on the server: poll every 2 s while one is under way.
    refetchInterval: (query) =>
      query.state.data?.list.some((i) => isTransitional(i.status)) ? POLL_FAST_MS : false,
  });

export const useMonitorStatistics = () =>
  useQuery({
    queryKey: opsKeys.monitorStats(),
    queryFn: ({ signal }) =>
      api.get<InstanceMonitorStatistics>('/admin/instance-monitor/statistics', { signal }),
  });

/**
 * Power off / start / terminate (body reason) and force-stop (query reason). Answered at once
 * with the instance in its transitional state; the driver call is a job on the server.
 */
export const runOpsAction = (action: OpsAction, id: number, reason: string) =>
  action === 'force-stop'
    ? api.post<AdminInstance>(`/admin/instance-monitor/force-stop/${id}`, undefined, { query: { reason } })
    : api.post<AdminInstance>(`/admin/user-management/instances/${id}/${action}`, { reason });

export function useOpsAction() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (v: { action: OpsAction; id: number; reason: string }) =>
      runOpsAction(v.action, v.id, v.reason),
    onSettled: () => void queryClient.invalidateQueries({ queryKey: opsKeys.all() }),
  });
}
