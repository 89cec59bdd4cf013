import type {
  AdminTenant,
  TenantCreateInput,
  TenantPriceInput,
  TenantPriceRow,
  TenantUpdateInput,
} from '@gpu/shared/tenant-admin';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { ta } from '../../../locales/zh-CN.admin';
import { catalogueKeys } from './keys';
import { useAdminMutation } from './use-admin-mutation';

const m = ta.adminCatalogue.saved;

/** GET/POST /admin/tenants, PUT /admin/tenants/{id}. */
export const useTenants = () =>
  useQuery({ queryKey: catalogueKeys.tenants(), queryFn: () => api.get<AdminTenant[]>('/admin/tenants') });
export const useSaveTenant = () =>
  useAdminMutation(
    ({ id, body }: { id?: number; body: TenantCreateInput | TenantUpdateInput }) =>
      id ? api.put<AdminTenant>(`/admin/tenants/${id}`, body) : api.post<AdminTenant>('/admin/tenants', body),
    m,
  );

/** The hosts a tenant sells (empty: every host of its visible regions). */
export const useTenantHosts = (id: number | undefined) =>
  useQuery({
    queryKey: catalogueKeys.tenantHosts(id ?? 0),
    queryFn: () => api.get<{ tenantId: number; hostIds: number[] }>(`/admin/tenants/${id}/hosts`),
    enabled: !!id,
  });
export const useSaveTenantHosts = () =>
  useAdminMutation(
    ({ id, hostIds }: { id: number; hostIds: number[] }) =>
      api.put(`/admin/tenants/${id}/hosts`, { hostIds }),
    m,
  );

export const useTenantPrices = (id: number | undefined) =>
  useQuery({
    queryKey: catalogueKeys.tenantPrices(id ?? 0),
    queryFn: () => api.get<TenantPriceRow[]>(`/admin/tenants/${id}/prices`),
    enabled: !!id,
  });
export const useSaveTenantPrice = () =>
  useAdminMutation(
    ({ id, skuId, body }: { id: number; skuId: number; body: TenantPriceInput }) =>
      api.put<TenantPriceRow>(`/admin/tenants/${id}/prices/${skuId}`, body),
    m,
  );
export const useDeleteTenantPrice = () =>
  useAdminMutation(
    ({ id, skuId }: { id: number; skuId: number }) => api.delete(`/admin/tenants/${id}/prices/${skuId}`),
    ta.adminCatalogue.pricing.reset,
  );

/** POST /admin/uploads with the file as a data URL; answers the stored image's URL. */
export async function uploadImage(file: File): Promise<string> {
  const dataUrl = await new Promise<string>((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error);
    reader.readAsDataURL(file);
  });
  const { url } = await api.post<{ url: string }>('/admin/uploads', { dataUrl });
  return url;
}
