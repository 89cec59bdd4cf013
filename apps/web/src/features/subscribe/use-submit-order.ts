import { APP_EVENTS } from '@gpu/shared/constants';
import { createInstanceRequestSchema, type Instance } from '@gpu/shared/instances';
import { type VastaiCreateRequest, vastaiCreateRequestSchema } from '@gpu/shared/vastai';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { ApiError } from '../../lib/api-client';
import { notify } from '../../lib/feedback';
import { PATHS } from '../../lib/routing/paths';
import { t } from '../../locales/zh-CN';
import { billingKeys } from '../billing';
import { watchCreation } from '../instances';
import { marketKeys } from '../market';
import { type CreatePayload, useCreateInstance } from './api/create-instance';
import { useCreateOverseasInstance } from './api/create-overseas';
import { subscribeKeys } from './api/keys';

const s = t.subscribe;

/** What a failed create shows (SPEC.md §8): the server's message, else '容器创建失败'. */
export function createFailureMessage(err: unknown): string {
  if (err instanceof ApiError) {
    if (err.code === 'TIMEOUT') return s.createTimeout;
    if (err.status > 0 && err.message) return err.message;
  }
  return s.createFailed;
}

/**
 * Creates the instance: checks the payload with the shared schema, then on success tells the app
 * (instance and balance events), refreshes balance and market and goes to the console; on a
 * refusal that may come from stale figures, reads the machine and the quote again.
 */
export function useSubmitOrder(skuGpuId: string, refetchQuote: () => void) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const create = useCreateInstance();
  const overseas = useCreateOverseasInstance();
  const handlers = {
    onSuccess: (instance: Instance) => {
      // Accepted means ordered, not running: SPEC's '容器创建成功，计费已开始！' shows when the
      // instance reaches RUNNING (instances' CreationWatcher), or 容器创建失败 with the reason.
      void notify('info', t.instances.orderPlaced);
      watchCreation(instance.id);
      window.dispatchEvent(new CustomEvent(APP_EVENTS.instanceCreated, { detail: instance }));
      window.dispatchEvent(new CustomEvent(APP_EVENTS.balance));
      void queryClient.invalidateQueries({ queryKey: billingKeys.balance() });
      void queryClient.invalidateQueries({ queryKey: marketKeys.all });
      queryClient.removeQueries({ queryKey: subscribeKeys.all });
      navigate(PATHS.console.root);
    },
    onError: (err: unknown) => {
      void notify('error', createFailureMessage(err));
      // Idle GPUs, prices or the machine itself may have changed: read them again.
      if (err instanceof ApiError && [404, 409, 422].includes(err.status)) {
        void queryClient.invalidateQueries({ queryKey: subscribeKeys.item(skuGpuId) });
        refetchQuote();
      }
    },
  };
  const submit = (payload: CreatePayload) => {
    const checked = createInstanceRequestSchema.safeParse(payload);
    if (!checked.success) {
      void notify('error', `${s.createError}：${checked.error.issues[0]?.message ?? ''}`);
      return;
    }
    create.mutate(payload, {
      ...handlers,
      onSuccess: (instance: Instance) => {
        if (payload.voucherId) window.dispatchEvent(new CustomEvent(APP_EVENTS.voucher));
        handlers.onSuccess(instance);
      },
    });
  };
  /** An overseas (vast.ai) offer: its own endpoint and payload (SPEC.md §3). */
  const submitOverseas = (payload: VastaiCreateRequest) => {
    const checked = vastaiCreateRequestSchema.safeParse(payload);
    if (!checked.success) {
      void notify('error', `${s.createError}：${checked.error.issues[0]?.message ?? ''}`);
      return;
    }
    overseas.mutate(checked.data, handlers);
  };
  return { submit, submitOverseas, creating: create.isPending || overseas.isPending };
}
