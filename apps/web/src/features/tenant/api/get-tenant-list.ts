import type { TenantListItem } from '@gpu/shared/tenant';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { tenantKeys } from './keys';

/** GET /api/tenant/list (development only). */
export const useTenantList = () =>
  useQuery({ queryKey: tenantKeys.list(), queryFn: () => api.get<TenantListItem[]>('/tenant/list') });
