import type { Instance } from '@gpu/shared/instances';
import { formatTime } from '@gpu/shared/time';
import { Alert, Input, Modal } from 'antd';
import { useState } from 'react';
import { t } from '../../../locales/zh-CN';
import styles from './dialogs.module.css';

const i18n = t.instances;

/** Release is destructive: the user types the instance's name to confirm. */
export function ReleaseDialog({
  inst,
  onConfirm,
  onClose,
}: {
  inst: Instance | null;
  onConfirm: (inst: Instance) => void;
  onClose: () => void;
}) {
  const [typed, setTyped] = useState('');
  const matches = inst !== null && typed.trim() === inst.name;
  // Typed something that is not (the start of) the name: say so beside the field.
  const mismatch = inst !== null && typed.trim() !== '' && !matches;
  const prepaid = inst !== null && inst.billingType !== 'hourly';
  const close = () => {
    setTyped('');
    onClose();
  };
  return (
    <Modal
      open={inst !== null}
      title={i18n.releaseTitle}
      okText={i18n.releaseOk}
      cancelText={t.common.cancel}
      okButtonProps={{ danger: true, disabled: !matches, 'data-testid': 'release-confirm' }}
      onOk={() => {
        if (inst && matches) onConfirm(inst);
        close();
      }}
      onCancel={close}
      destroyOnHidden
      width={460}
    >
      {inst ? (
        <div className={styles.body}>
          <Alert type="error" showIcon title={i18n.releaseWarning} />
          {prepaid ? (
            // The server refunds nothing of a package's unused time on release (lifecycle.usecases.ts).
            <Alert
              type="warning"
              showIcon
              data-testid="release-prepaid"
              title={
                inst.expiresAt
                  ? i18n.releasePrepaid(
                      i18n.billingType[inst.billingType],
                      formatTime(inst.expiresAt, 'YYYY-MM-DD HH:mm'),
                    )
                  : i18n.releasePrepaidNoExpiry(i18n.billingType[inst.billingType])
              }
            />
          ) : null}
          <p className={styles.prompt}>{i18n.releasePrompt(inst.name)}</p>
          <Input
            autoFocus
            value={typed}
            status={mismatch ? 'error' : undefined}
            placeholder={i18n.releasePlaceholder}
            onChange={(e) => setTyped(e.target.value)}
            onPressEnter={() => {
              if (matches) {
                onConfirm(inst);
                close();
              }
            }}
            aria-label={i18n.releasePlaceholder}
            data-testid="release-name"
          />
          {mismatch ? (
            <div className={styles.fieldError} role="alert" data-testid="release-name-mismatch">
              {i18n.releaseNameMismatch(inst.name)}
            </div>
          ) : null}
        </div>
      ) : null}
    </Modal>
  );
}
