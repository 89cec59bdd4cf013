import type { Instance } from '@gpu/shared/instances';
import { useState } from 'react';
import { confirmDialog } from '../../../lib/feedback';
import { t } from '../../../locales/zh-CN';
import { useFailedCreateActions } from '../api/failed-create';
import { usePowerAction } from '../api/instance-actions';
import type { RowAction } from '../instance-status';
import { ConnectDrawer } from './ConnectDrawer';
import { ReleaseDialog } from './ReleaseDialog';
import { RenameDialog } from './RenameDialog';
import { RenewDialog } from './RenewDialog';

const i18n = t.instances;

/**
 * The confirmations in front of each action: power off/on confirm in a dialog, release asks for
 * the instance's name, renewal opens the price dialog. `busy(id)` is true while that
 * instance's call is in flight.
 */
export function useActionFlow() {
  const power = usePowerAction();
  const failed = useFailedCreateActions();
  const [releasing, setReleasing] = useState<Instance | null>(null);
  const [renewing, setRenewing] = useState<Instance | null>(null);
  const [renaming, setRenaming] = useState<Instance | null>(null);
  const [connecting, setConnecting] = useState<Instance | null>(null);
  const [inFlight, setInFlight] = useState<ReadonlySet<number>>(new Set());

  const run = (action: 'powerOff' | 'powerOn' | 'release', inst: Instance) => {
    setInFlight((s) => new Set(s).add(inst.id));
    power.mutate(
      { action, inst },
      {
        onSettled: () =>
          setInFlight((s) => {
            const next = new Set(s);
            next.delete(inst.id);
            return next;
          }),
      },
    );
  };

  const onAction = (action: RowAction, inst: Instance) => {
    const hourly = inst.billingType === 'hourly';
    if (action === 'powerOff' || action === 'powerOn') {
      const off = action === 'powerOff';
      void confirmDialog({
        title: off ? i18n.powerOffTitle : i18n.powerOnTitle,
        content: off ? i18n.powerOffContent(inst.name, hourly) : i18n.powerOnContent(inst.name, hourly),
        okText: off ? i18n.powerOff : i18n.powerOn,
        cancelText: t.common.cancel,
        okButtonProps: { danger: off },
        onOk: () => run(action, inst),
      });
    } else if (action === 'release') setReleasing(inst);
    else if (action === 'rename') setRenaming(inst);
    else if (action === 'connect') setConnecting(inst);
    else if (action === 'recreate' || action === 'dismiss') {
      setInFlight((s) => new Set(s).add(inst.id));
      failed[action].mutate(inst, {
        onSettled: () =>
          setInFlight((s) => {
            const next = new Set(s);
            next.delete(inst.id);
            return next;
          }),
      });
    } else setRenewing(inst);
  };

  const dialogs = (
    <>
      <ReleaseDialog
        inst={releasing}
        onConfirm={(inst) => run('release', inst)}
        onClose={() => setReleasing(null)}
      />
      <RenewDialog inst={renewing} onClose={() => setRenewing(null)} />
      <RenameDialog inst={renaming} onClose={() => setRenaming(null)} />
      <ConnectDrawer inst={connecting} onClose={() => setConnecting(null)} />
    </>
  );

  return { onAction, busy: (id: number) => inFlight.has(id), dialogs };
}
