import type {
  AdminDashboard,
  DiscountAdminView,
  DiscountInput,
  PromotionScopes,
} from '@gpu/shared/discounts';
import type { Page } from '@gpu/shared/envelope';
import type {
  DistributionDetail,
  DistributionPreview,
  DistributionResult,
  DistributionTarget,
  DistributionView,
  VoucherConfigInput,
  VoucherConfigView,
} from '@gpu/shared/vouchers';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { promotionKeys } from './keys';

/** The admin calls of SPEC.md §7 (Discounts, Voucher configs, Distribution) and the dashboard. */

export const useScopes = () =>
  useQuery({
    queryKey: promotionKeys.scopes(),
    queryFn: () => api.get<PromotionScopes>('/admin/promotions/scopes'),
    staleTime: 60_000,
  });

export const useDashboard = () =>
  useQuery({
    queryKey: promotionKeys.dashboard(),
    queryFn: () => api.get<AdminDashboard>('/admin/dashboard'),
  });

export interface DiscountQuery {
  page: number;
  size: number;
  keyword?: string;
  state?: DiscountAdminView['state'];
}
export const useDiscounts = (q: DiscountQuery) =>
  useQuery({
    queryKey: promotionKeys.discounts(q),
    queryFn: () => api.get<Page<DiscountAdminView>>('/admin/discounts', { query: { ...q } }),
    placeholderData: keepPreviousData,
  });

export interface ConfigQuery {
  page: number;
  size: number;
  keyword?: string;
  enabled?: 'true' | 'false';
}
export const useVoucherConfigs = (q: ConfigQuery) =>
  useQuery({
    queryKey: promotionKeys.configs(q),
    queryFn: () => api.get<Page<VoucherConfigView>>('/admin/vouchers/configs', { query: { ...q } }),
    placeholderData: keepPreviousData,
  });

export const useDistributionHistory = (q: { page: number; size: number }) =>
  useQuery({
    queryKey: promotionKeys.history(q),
    queryFn: () =>
      api.get<Page<DistributionView>>('/admin/voucher-distribution/history', { query: { ...q } }),
    placeholderData: keepPreviousData,
  });

export const useDistributionDetail = (id: number | null) =>
  useQuery({
    queryKey: promotionKeys.distribution(id ?? 0),
    queryFn: () => api.get<DistributionDetail>(`/admin/voucher-distribution/detail/${id}`),
    enabled: id !== null,
  });

/** A write that refreshes every promotion list afterwards. */
function useWrite<I, O>(fn: (input: I) => Promise<O>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSuccess: () => void client.invalidateQueries({ queryKey: promotionKeys.all() }),
  });
}

export const useSaveDiscount = () =>
  useWrite(({ id, input }: { id: number | null; input: DiscountInput }) =>
    id === null
      ? api.post<DiscountAdminView>('/admin/discounts', input)
      : api.put<DiscountAdminView>(`/admin/discounts/${id}`, input),
  );
export const useDiscountStatus = () =>
  useWrite(({ id, enabled }: { id: number; enabled: boolean }) =>
    api.put<DiscountAdminView>(`/admin/discounts/${id}/status`, { enabled }),
  );
export const useDeleteDiscount = () => useWrite((id: number) => api.delete<null>(`/admin/discounts/${id}`));

export const useSaveConfig = () =>
  useWrite(({ id, input }: { id: number | null; input: VoucherConfigInput }) =>
    id === null
      ? api.post<VoucherConfigView>('/admin/vouchers/configs', input)
      : api.put<VoucherConfigView>(`/admin/vouchers/configs/${id}`, input),
  );
export const useToggleConfig = () =>
  useWrite((id: number) => api.patch<VoucherConfigView>(`/admin/vouchers/configs/${id}/toggle`));
export const useDeleteConfig = () =>
  useWrite(({ id, archive }: { id: number; archive: boolean }) =>
    api.delete<{ archived: boolean }>(`/admin/vouchers/configs/${id}`, {
      query: archive ? { archive: 'true' } : {},
    }),
  );

export const previewDistribution = (input: { configId: number; target: DistributionTarget }) =>
  api.post<DistributionPreview>('/admin/voucher-distribution/preview', input);
export const useExecuteDistribution = () =>
  useWrite((input: { configId: number; target: DistributionTarget; requestId: string; remark: string }) =>
    api.post<DistributionResult>('/admin/voucher-distribution/execute', input),
  );
