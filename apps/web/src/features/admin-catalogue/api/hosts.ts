import type { Page } from '@gpu/shared/envelope';
import type { HostDetail, HostStatistics, HostView } from '@gpu/shared/hosts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { ta } from '../../../locales/zh-CN.admin';
import { catalogueKeys } from './keys';
import { useAdminMutation } from './use-admin-mutation';

export interface HostFilters {
  page: number;
  size: number;
  keyword?: string;
  regionId?: number;
  status?: string;
}
export interface ProbeResult {
  reachable: boolean;
  engineVersion: string;
  gpus: { index: number; model: string; memoryGb: number }[];
  warnings: string[];
  error: string | null;
}

const h = ta.adminCatalogue.hosts;

/** GET /admin/hosts (SPEC.md §7 Hosts), with its statistics and one host's GPUs. */
export const useHosts = (q: HostFilters) =>
  useQuery({
    queryKey: catalogueKeys.hosts(q),
    queryFn: () => api.get<Page<HostView>>('/admin/hosts', { query: { ...q } }),
    placeholderData: keepPreviousData,
  });
export const useHostStatistics = () =>
  useQuery({
    queryKey: catalogueKeys.hostStats(),
    queryFn: () => api.get<HostStatistics>('/admin/hosts/statistics'),
  });
export const useHost = (id: number | null) =>
  useQuery({
    queryKey: catalogueKeys.host(id ?? 0),
    queryFn: () => api.get<HostDetail>(`/admin/hosts/${id}`),
    enabled: id !== null,
  });

export const useSaveHost = () =>
  useAdminMutation(
    ({ id, body }: { id?: number; body: Record<string, unknown> }) =>
      id ? api.put<HostDetail>(`/admin/hosts/${id}`, body) : api.post<HostDetail>('/admin/hosts', body),
    ta.adminCatalogue.saved,
  );
export const useHostStatus = () =>
  useAdminMutation(
    ({ id, status }: { id: number; status: string }) =>
      api.patch<HostDetail>(`/admin/hosts/${id}/status`, { status }),
    h.statusChanged,
  );
export const useDeleteHost = () =>
  useAdminMutation(
    (id: number) => api.delete<{ id: number }>(`/admin/hosts/${id}`),
    ta.adminCatalogue.deleted,
  );
export const useInitPorts = () =>
  useAdminMutation((id: number) => api.post<{ total: number }>(`/admin/hosts/${id}/init-ports`), h.portsDone);
/** Test connection answers 200 with `reachable` either way; the page shows the result. */
export const useTestConnection = () =>
  useAdminMutation((id: number) => api.post<ProbeResult>(`/admin/hosts/${id}/test-connection`), h.probeDone);
