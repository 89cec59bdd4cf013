import type { OpsDashboard, OpsDashboardQuery } from '@gpu/shared/ops-dashboard';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { opsKeys } from './keys';

export type DashboardFilters = Pick<OpsDashboardQuery, 'days' | 'lowBalance'> & { tenantId?: number };

/** GET /admin/ops-dashboard; a balance adjustment refreshes it (it sits under the ops keys). */
export const useOpsDashboard = (q: DashboardFilters) =>
  useQuery({
    queryKey: opsKeys.dashboard(q),
    queryFn: ({ signal }) => api.get<OpsDashboard>('/admin/ops-dashboard', { query: { ...q }, signal }),
    placeholderData: keepPreviousData,
  });
