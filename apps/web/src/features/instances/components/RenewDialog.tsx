import type { Instance, RenewalPricing } from '@gpu/shared/instances';
import { formatMoney } from '@gpu/shared/money';
import { formatTime } from '@gpu/shared/time';
import { Alert, Descriptions, Modal, Radio, Skeleton } from 'antd';
import { useEffect, useState } from 'react';
import { t } from '../../../locales/zh-CN';
import { useRenew, useRenewalPricing } from '../api/renewal';
import styles from './dialogs.module.css';

const i18n = t.instances;
type PackageType = Exclude<RenewalPricing['billingType'], 'hourly'>;

/** Renewal of a package: pick a duration, see the price and the new expiry, confirm. */
export function RenewDialog({ inst, onClose }: { inst: Instance | null; onClose: () => void }) {
  const pricing = useRenewalPricing(inst?.id ?? null);
  const renew = useRenew();
  const [duration, setDuration] = useState(1);
  useEffect(() => {
    if (inst) setDuration(1);
  }, [inst]);

  const data = pricing.data;
  const unit = data && data.billingType !== 'hourly' ? i18n.renewUnit[data.billingType as PackageType] : '';
  const option = data?.options.find((o) => o.duration === duration);

  return (
    <Modal
      open={inst !== null}
      title={inst ? i18n.renewTitle(inst.name) : ''}
      okText={i18n.renewOk}
      cancelText={t.common.cancel}
      okButtonProps={{ disabled: !option, 'data-testid': 'renew-confirm' }}
      confirmLoading={renew.isPending}
      onOk={() => {
        if (!inst || !option) return;
        renew.mutate({ instanceId: inst.id, duration: option.duration }, { onSuccess: onClose });
      }}
      onCancel={onClose}
      destroyOnHidden
      width={480}
    >
      {pricing.isError ? (
        <Alert type="error" showIcon title={pricing.error.message || i18n.renewLoadFailed} />
      ) : !data ? (
        <Skeleton active paragraph={{ rows: 3 }} />
      ) : (
        <div className={styles.body}>
          <div>
            <div className={styles.fieldLabel}>{i18n.renewDuration}</div>
            <Radio.Group
              optionType="button"
              buttonStyle="solid"
              value={duration}
              onChange={(e) => setDuration(e.target.value as number)}
              options={data.options.map((o) => ({ value: o.duration, label: `${o.duration}${unit}` }))}
            />
          </div>
          <Descriptions column={1} size="small" bordered className={styles.figures}>
            <Descriptions.Item label={i18n.currentExpiry}>
              {formatTime(data.expiresAt, 'YYYY-MM-DD HH:mm')}
            </Descriptions.Item>
            <Descriptions.Item label={i18n.newExpiry}>
              <strong data-testid="renew-new-expiry">
                {formatTime(option?.newExpiresAt, 'YYYY-MM-DD HH:mm')}
              </strong>
            </Descriptions.Item>
            <Descriptions.Item label={i18n.renewAmount}>
              <span className={styles.amount} data-testid="renew-amount">
                {option ? formatMoney(option.amount) : '-'}
              </span>
            </Descriptions.Item>
          </Descriptions>
          <p className={styles.hint}>{i18n.renewHint}</p>
        </div>
      )}
    </Modal>
  );
}
