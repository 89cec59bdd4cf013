import type { Page } from '@gpu/shared/envelope';
import type { AdminInstance } from '@gpu/shared/operations';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { ApiError } from '../../../lib/api-client';
import { notify } from '../../../lib/feedback';
import { ta } from '../../../locales/zh-CN.admin';
import { waitForStable } from '../../instances';
import { type OpsAction, useOpsAction } from '../api/instances';
import { opsKeys } from '../api/keys';
import { ReasonModal } from './ReasonModal';

const i18n = ta.adminOps;
/** Where each action ends when its job succeeds. */
const OPS_TARGET: Record<OpsAction, AdminInstance['status']> = {
  'power-off': 'STOPPED',
  'force-stop': 'STOPPED',
  start: 'RUNNING',
  terminate: 'RELEASED',
  // A failed reset also ends STOPPED (with its old container): the instance's events say which.
  'reset-system': 'STOPPED',
};

/** Opens the reason dialog for an admin action on an instance, runs it and says how it went. */
export function useOpsActionFlow() {
  const [pending, setPending] = useState<{ inst: AdminInstance; action: OpsAction } | null>(null);
  const mutation = useOpsAction();
  const queryClient = useQueryClient();
  const texts = pending ? i18n.instanceActions[pending.action] : null;

  const dialog = (
    <ReasonModal
      open={pending !== null}
      title={texts?.title}
      target={pending ? i18n.actionOn(pending.inst.name, pending.inst.userPhone) : null}
      okText={texts?.confirm ?? ''}
      danger={pending?.action !== 'start'}
      loading={mutation.isPending}
      onCancel={() => setPending(null)}
      onSubmit={(reason) => {
        if (!pending) return;
        mutation.mutate(
          { action: pending.action, id: pending.inst.id, reason },
          {
            // Accepted: the list shows the transitional state; the toast waits for the end state.
            onSuccess: (updated) => {
              const { action } = pending;
              setPending(null);
              // The answer (its transitional state) replaces the row the list still holds.
              queryClient.setQueriesData<Page<AdminInstance>>({ queryKey: opsKeys.instances() }, (old) =>
                Array.isArray(old?.list)
                  ? { ...old, list: old.list.map((i) => (i.id === updated.id ? updated : i)) }
                  : old,
              );
              void waitForStable<AdminInstance>(queryClient, opsKeys.instances(), updated.id).then((end) => {
                if (end === null) return;
                if (end !== 'gone' && end.status !== OPS_TARGET[action]) notify('error', i18n.actionFailed);
                else notify('success', i18n.instanceActions[action].done);
              });
            },
            onError: (err) => void notify('error', err instanceof ApiError ? err.message : i18n.actionFailed),
          },
        );
      }}
    />
  );
  return { open: (inst: AdminInstance, action: OpsAction) => setPending({ inst, action }), dialog };
}
