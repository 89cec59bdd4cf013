import type { RenewalPricing, RenewalResult } from '@gpu/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { notify } from '../../../lib/feedback';
import { t } from '../../../locales/zh-CN';
import { announceMoneyChange } from '../app-events';
import { instanceKeys } from './list-instances';

/** GET /v2/package-billing/renewal-pricing/{id}: price and new expiry per allowed duration. */
export const useRenewalPricing = (instanceId: number | null) =>
  useQuery({
    queryKey: [...instanceKeys.all, 'renewal-pricing', instanceId],
    queryFn: () => api.get<RenewalPricing>(`/v2/package-billing/renewal-pricing/${instanceId}`),
    enabled: instanceId !== null,
    staleTime: 0,
  });

/** POST /v2/package-billing/manual-renewal: charges and extends the package. */
export function useRenew() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { instanceId: number; duration: number }) =>
      api.post<RenewalResult>('/v2/package-billing/manual-renewal', input),
    onSuccess: () => {
      void notify('success', t.instances.done.renew);
      announceMoneyChange(queryClient);
    },
    onError: (err) => {
      void notify('error', err instanceof Error && err.message ? err.message : t.instances.failed.renew);
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: instanceKeys.all }),
  });
}
