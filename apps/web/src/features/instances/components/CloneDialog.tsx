import { type BillingType, DURATION_LIMITS, GPU_COUNT_MAX } from '@gpu/shared/constants';
import { filterInstanceName, type Instance, instanceNameSchema } from '@gpu/shared/instances';
import { BILLING_TYPE_NAMES } from '@gpu/shared/labels';
import { Alert, Input, InputNumber, Modal, Radio } from 'antd';
import { useState } from 'react';
import { Price } from '../../../components/Price';
import { t } from '../../../locales/zh-CN';
import { useCloneInstance, useClonePrice, useCloneTargets } from '../api/clone-instance';
import { canClone } from '../instance-status';
import styles from './dialogs.module.css';

const i18n = t.instances.clone;
const BILLING_TYPES = Object.keys(BILLING_TYPE_NAMES) as BillingType[];

/**
 * 克隆实例: the new instance's name, GPU count and billing mode, with the server's price for it
 * (as the subscribe page shows it), and where the platform has an image registry, the machine to
 * put it on: the source's first (fastest copy), then the region's others of its GPU model with
 * idle GPUs. Bought as a create; the copy runs on the server as a job.
 */
export function CloneDialog({ inst, onClose }: { inst: Instance; onClose: () => void }) {
  const [name, setName] = useState(() => filterInstanceName(`${inst.name}-clone`));
  const [gpuAmount, setGpuAmount] = useState(inst.gpuCount);
  const [billingType, setBillingType] = useState<BillingType>(inst.billingType);
  const [duration, setDuration] = useState(1);
  const [machineId, setMachineId] = useState(inst.machineId);
  const targets = useCloneTargets(inst);
  const choices = targets.data?.list ?? [];
  const chosen = choices.find((c) => c.machineId === machineId);
  const clone = useCloneInstance();
  const checked = instanceNameSchema.safeParse(name);
  const nameError = checked.success ? null : checked.error.issues[0]?.message;
  const hourly = billingType === 'hourly';
  const limits = hourly ? null : DURATION_LIMITS[billingType];
  // A duration typed for another billing mode is held to this one's limits.
  const periods = limits ? Math.min(Math.max(duration, limits.min), limits.max) : 1;
  const price = useClonePrice(machineId, { gpuAmount, billingType, duration: periods });
  const ready = canClone(inst) && checked.success && price.isSuccess && !clone.isPending;
  const submit = () => {
    if (!ready || !checked.success) return;
    clone.mutate(
      {
        inst,
        body: {
          instanceName: checked.data,
          gpuAmount,
          billingType,
          duration: periods,
          // Only another machine is named: the server's default is the source's.
          ...(machineId !== inst.machineId ? { machineId } : {}),
        },
      },
      { onSuccess: onClose },
    );
  };
  return (
    <Modal
      open
      title={i18n.title(inst.name)}
      okText={i18n.ok}
      cancelText={t.common.cancel}
      okButtonProps={{ disabled: !ready, loading: clone.isPending, 'data-testid': 'clone-confirm' }}
      onOk={submit}
      onCancel={onClose}
      destroyOnHidden
      width={520}
    >
      <div className={styles.body} data-testid="clone-dialog">
        {inst.status !== 'STOPPED' ? <Alert type="warning" showIcon title={i18n.stopFirst} /> : null}
        <Alert type="info" showIcon title={i18n.intro(inst.dataMountPath)} data-testid="clone-intro" />
        <div>
          <div className={styles.fieldLabel}>{i18n.name}</div>
          <Input
            value={name}
            maxLength={50}
            status={nameError ? 'error' : undefined}
            onChange={(e) => setName(filterInstanceName(e.target.value))}
            aria-label={i18n.name}
            data-testid="clone-name"
          />
          {nameError ? (
            <div className={styles.cloneError} role="alert" data-testid="clone-name-error">
              {nameError}
            </div>
          ) : null}
        </div>
        {choices.length > 1 ? (
          <div>
            <div className={styles.fieldLabel}>{i18n.machine}</div>
            <Radio.Group
              className={styles.cloneMachines}
              name="clone-machine"
              value={machineId}
              onChange={(e) => setMachineId(e.target.value as number)}
              aria-label={i18n.machine}
              data-testid="clone-machine"
              options={choices.map((c) => ({
                value: c.machineId,
                label: (
                  <span data-testid={`clone-machine-${c.machineId}`}>
                    {c.hostName} · {i18n.idle(c.gpuIdleNum)}
                    <span className={styles.hint}> （{c.sameHost ? i18n.sameHost : i18n.otherHost}）</span>
                  </span>
                ),
              }))}
            />
            {chosen && !chosen.sameHost ? (
              <Alert type="warning" showIcon title={i18n.otherHostHint} data-testid="clone-other-host" />
            ) : null}
          </div>
        ) : null}
        <div>
          <div className={styles.fieldLabel}>{i18n.billingType}</div>
          <Radio.Group
            value={billingType}
            onChange={(e) => setBillingType(e.target.value as BillingType)}
            optionType="button"
            options={BILLING_TYPES.map((b) => ({ value: b, label: BILLING_TYPE_NAMES[b] }))}
            aria-label={i18n.billingType}
            data-testid="clone-billing"
          />
        </div>
        <div className={styles.cloneRow}>
          <div>
            <div className={styles.fieldLabel}>{i18n.gpuCount}</div>
            <InputNumber
              min={1}
              max={GPU_COUNT_MAX}
              precision={0}
              value={gpuAmount}
              onChange={(v) => setGpuAmount(v ?? 1)}
              aria-label={i18n.gpuCount}
              data-testid="clone-gpus"
            />
          </div>
          {limits ? (
            <div>
              <div className={styles.fieldLabel}>{i18n.duration}</div>
              <InputNumber
                min={limits.min}
                max={limits.max}
                precision={0}
                value={periods}
                onChange={(v) => setDuration(v ?? 1)}
                suffix={t.instances.renewUnit[billingType as Exclude<BillingType, 'hourly'>]}
                aria-label={i18n.duration}
                data-testid="clone-duration"
              />
            </div>
          ) : null}
        </div>
        <div data-testid="clone-price">
          <div className={styles.fieldLabel}>{i18n.payable}</div>
          {price.isError ? (
            <span className={styles.fieldError}>
              {price.error instanceof Error && price.error.message ? price.error.message : i18n.priceFailed}
            </span>
          ) : price.data ? (
            <Price
              value={price.data.payableAmount}
              unit={hourly ? t.subscribe.unit.hourly : undefined}
              size="lg"
              testId="clone-payable"
            />
          ) : (
            <span className={styles.hint}>{i18n.pricing}</span>
          )}
        </div>
      </div>
    </Modal>
  );
}
