import type { Instance } from '@gpu/shared/instances';
import { useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useState } from 'react';
import { confirmDialog } from '../../../lib/feedback';
import { t } from '../../../locales/zh-CN';
import { AutoShutdownDialog } from '../../guards';
import { SaveImageDialog } from '../../images';
import { InstanceMetricsDrawer } from '../../monitoring';
import { useFailedCreateActions } from '../api/failed-create';
import { usePowerAction } from '../api/instance-actions';
import { instanceKeys } from '../api/keys';
import { useResetInstance } from '../api/reset-instance';
import type { RowAction } from '../instance-status';
import { NoGpuConfirm } from './NoGpuConfirm';
import { ReleaseDialog } from './ReleaseDialog';
import { RenewDialog } from './RenewDialog';
import { ResetDialog } from './ResetDialog';

const i18n = t.instances;

// Loaded on first use: the drawer and the name rules (zod) stay out of the page's chunk.
const ConnectDrawer = lazy(() => import('./ConnectDrawer').then((m) => ({ default: m.ConnectDrawer })));
const RenameDialog = lazy(() => import('./RenameDialog').then((m) => ({ default: m.RenameDialog })));
const CloneDialog = lazy(() => import('./CloneDialog').then((m) => ({ default: m.CloneDialog })));

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
  const [cloning, setCloning] = useState<Instance | null>(null);
  const reset = useResetInstance();
  const [resetting, setResetting] = useState<{ inst: Instance; changeImage: boolean } | null>(null);
  const [savingImage, setSavingImage] = useState<Instance | null>(null);
  const [guarding, setGuarding] = useState<Instance | null>(null);
  const [monitoring, setMonitoring] = useState<Instance | null>(null);
  const queryClient = useQueryClient();
  const [inFlight, setInFlight] = useState<ReadonlySet<number>>(new Set());

  const run = (action: 'powerOff' | 'powerOn' | 'release', inst: Instance, noGpu = false) => {
    setInFlight((s) => new Set(s).add(inst.id));
    power.mutate(
      { action, inst, noGpu },
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
    } else if (action === 'powerOnNoGpu') {
      // The price is shown before confirming (issue 30).
      void confirmDialog({
        title: i18n.noGpu.title(inst.name),
        content: <NoGpuConfirm inst={inst} />,
        okText: i18n.noGpu.ok,
        cancelText: t.common.cancel,
        width: 460,
        onOk: () => run('powerOn', inst, true),
      });
    } else if (action === 'release') setReleasing(inst);
    else if (action === 'rename') setRenaming(inst);
    else if (action === 'connect') setConnecting(inst);
    else if (action === 'clone') setCloning(inst);
    else if (action === 'saveImage') setSavingImage(inst);
    else if (action === 'autoShutdown') setGuarding(inst);
    else if (action === 'monitor') setMonitoring(inst);
    else if (action === 'reset' || action === 'changeImage')
      setResetting({ inst, changeImage: action === 'changeImage' });
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
      <ResetDialog
        inst={resetting?.inst ?? null}
        changeImage={resetting?.changeImage ?? false}
        onConfirm={(inst, image) => {
          setInFlight((s) => new Set(s).add(inst.id));
          reset.mutate(
            { inst, image },
            {
              onSettled: () =>
                setInFlight((s) => {
                  const next = new Set(s);
                  next.delete(inst.id);
                  return next;
                }),
            },
          );
        }}
        onClose={() => setResetting(null)}
      />
      <Suspense fallback={null}>
        {renaming ? <RenameDialog inst={renaming} onClose={() => setRenaming(null)} /> : null}
        {connecting ? <ConnectDrawer inst={connecting} onClose={() => setConnecting(null)} /> : null}
        {cloning ? <CloneDialog inst={cloning} onClose={() => setCloning(null)} /> : null}
        {guarding ? <AutoShutdownDialog inst={guarding} onClose={() => setGuarding(null)} /> : null}
        {monitoring ? <InstanceMetricsDrawer inst={monitoring} onClose={() => setMonitoring(null)} /> : null}
        {savingImage ? (
          <SaveImageDialog
            inst={savingImage}
            onClose={() => setSavingImage(null)}
            onSaved={() => void queryClient.invalidateQueries({ queryKey: instanceKeys.all })}
          />
        ) : null}
      </Suspense>
    </>
  );

  return { onAction, busy: (id: number) => inFlight.has(id), dialogs };
}
