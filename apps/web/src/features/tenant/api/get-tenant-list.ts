import type { TenantListItem } from '@gpu/shared/tenant';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

/** GET /api/tenant/list (development only). */
export const useTenantList = () =>
  useQuery({ queryKey: ['tenant', 'list'], queryFn: () => api.get<TenantListItem[]>('/tenant/list') });
