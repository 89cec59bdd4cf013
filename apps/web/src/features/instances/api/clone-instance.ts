import type { CloneTargets } from '@gpu/shared/clone-targets';
import type { CloneInstanceRequest, Instance } from '@gpu/shared/instances';
import type { CalculatePriceResponse } from '@gpu/shared/pricing';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { notify } from '../../../lib/feedback';
import { t } from '../../../locales/zh-CN';
import { announceMoneyChange } from '../../billing';
import { watchCreation } from '../creation-watch';
import { instanceKeys } from './keys';

export type CloneOrder = Pick<CloneInstanceRequest, 'gpuAmount' | 'billingType' | 'duration'>;

/**
 * POST /v2/package-billing/calculate-price for the source's machine: the server's figures for
 * the clone, as the subscribe page shows them (a clone is priced as a create).
 */
export const useClonePrice = (machineId: number | undefined, order: CloneOrder | null) =>
  useQuery({
    queryKey: [...instanceKeys.all, 'clone-price', machineId, order] as const,
    queryFn: ({ signal }) => {
      const o = order as CloneOrder;
      return api.post<CalculatePriceResponse>(
        '/v2/package-billing/calculate-price',
        {
          machineId,
          billingType: o.billingType,
          duration: o.billingType === 'hourly' ? 1 : o.duration,
          gpuAmount: o.gpuAmount,
        },
        { signal },
      );
    },
    enabled: machineId !== undefined && order !== null,
    placeholderData: keepPreviousData,
    retry: false,
    staleTime: 0,
  });

/**
 * GET /gpu/instance/clone-targets?instance_uuid=: the machines a clone may go on, the source's
 * first (other hosts of its region and GPU model only where the platform has an image registry).
 */
export const useCloneTargets = (inst: Pick<Instance, 'uuid'>) =>
  useQuery({
    queryKey: [...instanceKeys.all, 'clone-targets', inst.uuid] as const,
    queryFn: ({ signal }) =>
      api.get<CloneTargets>('/gpu/instance/clone-targets', { query: { instance_uuid: inst.uuid }, signal }),
    retry: false,
    staleTime: 0,
  });

/**
 * POST /gpu/instance/clone?instance_uuid=: answers at once with the new instance in CREATING
 * (the copy is a job); the creation watcher reports when it runs or failed (and was refunded).
 */
export function useCloneInstance() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ inst, body }: { inst: Instance; body: CloneInstanceRequest }) =>
      api.post<Instance>('/gpu/instance/clone', body, {
        query: { instance_uuid: inst.uuid },
        idempotencyKey: crypto.randomUUID(),
      }),
    onSuccess: (fresh) => {
      watchCreation(fresh.id);
      void notify('info', t.instances.clone.placed);
      announceMoneyChange(queryClient);
    },
    onError: (err) =>
      void notify('error', err instanceof Error && err.message ? err.message : t.instances.clone.failed),
    onSettled: () => queryClient.invalidateQueries({ queryKey: instanceKeys.all }),
  });
}
