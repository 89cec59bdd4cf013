import type { RenewalPricing, RenewalResult } from '@gpu/shared/instances';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api } from '../../../lib/api-client';
import { notify } from '../../../lib/feedback';
import { idempotentAction } from '../../../lib/idempotent-action';
import { t } from '../../../locales/zh-CN';
import { announceMoneyChange } from '../../billing';
import { instanceKeys } from './keys';

/** GET /v2/package-billing/renewal-pricing/{id}: price and new expiry per allowed duration. */
export const useRenewalPricing = (instanceId: number | null) =>
  useQuery({
    queryKey: instanceKeys.renewalPricing(instanceId),
    queryFn: () => api.get<RenewalPricing>(`/v2/package-billing/renewal-pricing/${instanceId}`),
    enabled: instanceId !== null,
    staleTime: 0,
  });

export type RenewalInput = { instanceId: number; duration: number };

/** POST /v2/package-billing/manual-renewal: charges and extends the package, once per key. */
export const renewInstance = (input: RenewalInput, idempotencyKey: string) =>
  api.post<RenewalResult>('/v2/package-billing/manual-renewal', input, { idempotencyKey });

export function useRenew() {
  const queryClient = useQueryClient();
  const [send] = useState(() => idempotentAction(renewInstance));
  return useMutation({
    mutationFn: send,
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
