import type { Instance } from '@gpu/shared/instances';
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
          <p className={styles.prompt}>{i18n.releasePrompt(inst.name)}</p>
          <Input
            autoFocus
            value={typed}
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
        </div>
      ) : null}
    </Modal>
  );
}
