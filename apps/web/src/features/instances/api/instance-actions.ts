import { APP_EVENTS, ORIGINAL_GPUS_TAKEN_MESSAGE } from '@gpu/shared/constants';
import type { Page } from '@gpu/shared/envelope';
import type { Instance } from '@gpu/shared/instances';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { emitAppEvent } from '../../../lib/app-events';
import { confirmDialog, notify } from '../../../lib/feedback';
import { t } from '../../../locales/zh-CN';
import { announceMoneyChange } from '../../billing';
import { type InstanceAction, PENDING_STATUS } from '../instance-status';
import { waitForStable } from '../wait-for-stable';
import { instanceKeys } from './keys';

export type PowerAction = Exclude<InstanceAction, 'renew'>;

const ENDPOINT: Record<PowerAction, string> = {
  powerOff: '/gpu/instance/power_off',
  powerOn: '/gpu/instance/power_on',
  release: '/gpu/instance/release',
};

const EVENT = {
  powerOff: APP_EVENTS.instanceStopped,
  powerOn: APP_EVENTS.instanceStarted,
  release: APP_EVENTS.instanceDeleted,
} as const;

/**
 * POST /gpu/instance/power_off|power_on|release?instance_uuid=: answers at once with the
 * instance in STOPPING / STARTING / RELEASING (the driver call is a job on the server).
 */
export const runPowerAction = (
  action: PowerAction,
  inst: Pick<Instance, 'uuid'>,
  otherGpus = false,
  noGpu = false,
) =>
  api.post<Instance>(ENDPOINT[action], undefined, {
    query: {
      instance_uuid: inst.uuid,
      ...(otherGpus ? { gpus: 'any' } : {}),
      // 无卡模式开机 (issue 30): no GPU, at the region's no-GPU price.
      ...(noGpu ? { mode: 'nogpu' } : {}),
    },
  });

/** Where each action ends when its job succeeds. */
const TARGET: Record<PowerAction, Instance['status']> = {
  powerOff: 'STOPPED',
  powerOn: 'RUNNING',
  release: 'RELEASED',
};

type Lists = Page<Instance> | undefined;

/**
 * Power off, power on, release. The row shows its transitional state at once (which also
 * switches the list to fast polling); the answer replaces it; once the polled list shows the
 * end state, the result is a toast (failed when the job took it back to where it was).
 */
export function usePowerAction() {
  const queryClient = useQueryClient();
  const patch = (id: number, change: (i: Instance) => Instance) =>
    queryClient.setQueriesData<Page<Instance>>({ queryKey: instanceKeys.lists() }, (old: Lists) =>
      old ? { ...old, list: old.list.map((i) => (i.id === id ? change(i) : i)) } : old,
    );

  const mutation = useMutation({
    mutationFn: ({
      action,
      inst,
      otherGpus,
      noGpu,
    }: {
      action: PowerAction;
      inst: Instance;
      otherGpus?: boolean;
      noGpu?: boolean;
    }) => runPowerAction(action, inst, otherGpus, noGpu),
    onMutate: async ({ action, inst }) => {
      await queryClient.cancelQueries({ queryKey: instanceKeys.lists() });
      patch(inst.id, (i) => ({ ...i, status: PENDING_STATUS[action] }));
    },
    onSuccess: (updated, { action, noGpu }) => {
      patch(updated.id, () => updated);
      void waitForStable<Instance>(queryClient, instanceKeys.lists(), updated.id).then((end) => {
        if (end === null) return;
        if (end !== 'gone' && end.status !== TARGET[action]) {
          void notify('error', t.instances.failed[action]);
          return;
        }
        void notify('success', noGpu ? t.instances.noGpu.done : t.instances.done[action]);
        emitAppEvent(EVENT[action], { id: updated.id });
        announceMoneyChange(queryClient);
      });
    },
    onError: (err, { action, inst }) => {
      // Its GPUs were taken while it was off: ask before moving it to other GPUs of the host.
      if (action === 'powerOn' && err instanceof Error && err.message === ORIGINAL_GPUS_TAKEN_MESSAGE) {
        void confirmDialog({
          title: t.instances.otherGpus.title,
          content: t.instances.otherGpus.body,
          okText: t.instances.otherGpus.ok,
          cancelText: t.instances.otherGpus.cancel,
          onOk: () => mutation.mutate({ action, inst, otherGpus: true }),
        });
        return;
      }
      void notify('error', err instanceof Error && err.message ? err.message : t.instances.failed[action]);
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: instanceKeys.all }),
  });
  return mutation;
}
