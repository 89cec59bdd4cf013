import type {
  AdminImage,
  GpuSkuCreateInput,
  GpuSkuSyncResult,
  GpuSkuUpdateInput,
  GpuSkuView,
  GpuTypeStatusInput,
  GpuTypeStatusResult,
  GpuTypeView,
  ImageCreateInput,
  ImageUpdateInput,
  RegionCreateInput,
  RegionUpdateInput,
  RegionView,
} from '@gpu/shared/catalogue';
import type { Page } from '@gpu/shared/envelope';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { ta } from '../../../locales/zh-CN.admin';
import { catalogueKeys } from './keys';
import { useAdminMutation } from './use-admin-mutation';

const m = ta.adminCatalogue.saved;

// ---- regions (GET/POST /admin/regions, PUT /admin/regions/{id}) ----
/** `enabled` false for administrators without catalogue:read (the server answers them 403). */
export const useRegions = (enabled = true) =>
  useQuery({
    queryKey: catalogueKeys.regions(),
    queryFn: () => api.get<RegionView[]>('/admin/regions'),
    enabled,
  });
export const useGpuTypes = () =>
  useQuery({ queryKey: catalogueKeys.gpuTypes(), queryFn: () => api.get<GpuTypeView[]>('/admin/gpu-types') });
/** The GPU types of one region (GET /admin/regions/{id}/gpu-types), with their sale status. */
export const useRegionGpuTypes = (regionId: number | undefined) =>
  useQuery({
    queryKey: catalogueKeys.regionGpuTypes(regionId ?? 0),
    queryFn: () => api.get<GpuTypeView[]>(`/admin/regions/${regionId}/gpu-types`),
    enabled: regionId !== undefined,
  });
/** 停售/恢复销售 of a GPU type in a region: `listed` on each of its SKUs there. */
export const useSetGpuTypeStatus = () =>
  useAdminMutation(
    ({ regionId, body }: { regionId: number; body: GpuTypeStatusInput }) =>
      api.put<GpuTypeStatusResult>(`/admin/regions/${regionId}/gpu-types/status`, body),
    ta.adminCatalogue.gpuTypes.statusSaved,
  );
export const useSaveRegion = () =>
  useAdminMutation(
    ({ id, body }: { id?: number; body: RegionCreateInput | RegionUpdateInput }) =>
      id ? api.put<RegionView>(`/admin/regions/${id}`, body) : api.post<RegionView>('/admin/regions', body),
    m,
  );

// ---- images ----
export interface ImageFilters {
  page: number;
  size: number;
  keyword?: string;
  frameworkType?: string;
}
export const useAdminImages = (q: ImageFilters) =>
  useQuery({
    queryKey: catalogueKeys.images(q),
    queryFn: () => api.get<Page<AdminImage>>('/admin/images', { query: { ...q } }),
    placeholderData: keepPreviousData,
  });
export const useSaveImage = () =>
  useAdminMutation(
    ({ id, body }: { id?: number; body: ImageCreateInput | ImageUpdateInput }) =>
      id ? api.put<AdminImage>(`/admin/images/${id}`, body) : api.post<AdminImage>('/admin/images', body),
    m,
  );

// ---- GPU SKUs ----
export const useSkus = () =>
  useQuery({ queryKey: catalogueKeys.skus(), queryFn: () => api.get<GpuSkuView[]>('/admin/gpu-sku/all') });
export const useSaveSku = () =>
  useAdminMutation(
    ({ id, body }: { id?: number; body: GpuSkuCreateInput | GpuSkuUpdateInput }) =>
      id ? api.put<GpuSkuView>(`/admin/gpu-sku/${id}`, body) : api.post<GpuSkuView>('/admin/gpu-sku', body),
    m,
  );
export const useDeleteSku = () =>
  useAdminMutation(
    (id: number) => api.delete<{ id: number }>(`/admin/gpu-sku/${id}`),
    ta.adminCatalogue.deleted,
  );
export const useSyncSkus = () =>
  useAdminMutation(() => api.post<GpuSkuSyncResult>('/admin/gpu-sku/sync'), ta.adminCatalogue.skus.synced);
