import type { AdminInstance } from '@gpu/shared/operations';
import { useState } from 'react';
import { ApiError } from '../../../lib/api-client';
import { notify } from '../../../lib/feedback';
import { t } from '../../../locales/zh-CN';
import { type OpsAction, useOpsAction } from '../api/instances';
import { ReasonModal } from './ReasonModal';

const i18n = t.adminOps;

/** Opens the reason dialog for an admin action on an instance, runs it and says how it went. */
export function useOpsActionFlow() {
  const [pending, setPending] = useState<{ inst: AdminInstance; action: OpsAction } | null>(null);
  const mutation = useOpsAction();
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
            onSuccess: () => {
              void notify('success', i18n.instanceActions[pending.action].done);
              setPending(null);
            },
            onError: (err) => void notify('error', err instanceof ApiError ? err.message : i18n.actionFailed),
          },
        );
      }}
    />
  );
  return { open: (inst: AdminInstance, action: OpsAction) => setPending({ inst, action }), dialog };
}
