import type { Instance } from '@gpu/shared/instances';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { notify } from '../../../lib/feedback';
import { t } from '../../../locales/zh-CN';
import { announceMoneyChange } from '../../billing';
import { watchCreation } from '../creation-watch';
import { instanceKeys } from './keys';

const i18n = t.instances;

/** POST /gpu/instance/recreate: the failed instance's settings bought again (a new order). */
export const recreateInstance = (inst: Pick<Instance, 'uuid'>) =>
  api.post<Instance>('/gpu/instance/recreate', undefined, {
    query: { instance_uuid: inst.uuid },
    idempotencyKey: crypto.randomUUID(),
  });

/** POST /gpu/instance/dismiss: the failed record leaves the list. */
export const dismissInstance = (inst: Pick<Instance, 'uuid'>) =>
  api.post<{ id: number }>('/gpu/instance/dismiss', undefined, { query: { instance_uuid: inst.uuid } });

export function useFailedCreateActions() {
  const queryClient = useQueryClient();
  const refresh = () => queryClient.invalidateQueries({ queryKey: instanceKeys.all });
  const recreate = useMutation({
    mutationFn: recreateInstance,
    onSuccess: (fresh) => {
      watchCreation(fresh.id);
      void notify('info', i18n.orderPlaced);
      announceMoneyChange(queryClient);
    },
    onError: (err) =>
      void notify('error', err instanceof Error && err.message ? err.message : i18n.recreateFailed),
    onSettled: refresh,
  });
  const dismiss = useMutation({
    mutationFn: dismissInstance,
    onSuccess: () => void notify('success', i18n.dismissed),
    onError: (err) =>
      void notify('error', err instanceof Error && err.message ? err.message : i18n.dismissFailed),
    onSettled: refresh,
  });
  return { recreate, dismiss };
}
