import { filterInstanceName, type Instance, instanceNameSchema } from '@gpu/shared/instances';
import { Input, Modal } from 'antd';
import { useState } from 'react';
import { t } from '../../../locales/zh-CN';
import { useRenameInstance } from '../api/rename-instance';
import styles from './dialogs.module.css';

const i18n = t.instances;

/** A new name, filtered live and checked by the create rules before it is sent. */
export function RenameDialog({ inst, onClose }: { inst: Instance | null; onClose: () => void }) {
  const [typed, setTyped] = useState<string | null>(null);
  const rename = useRenameInstance();
  const value = typed ?? inst?.name ?? '';
  const checked = instanceNameSchema.safeParse(value);
  const error = checked.success ? null : checked.error.issues[0]?.message;
  const close = () => {
    setTyped(null);
    onClose();
  };
  const save = () => {
    if (!inst || !checked.success) return;
    if (checked.data === inst.name) return close();
    rename.mutate({ id: inst.id, instanceName: checked.data }, { onSuccess: close });
  };
  return (
    <Modal
      open={inst !== null}
      title={i18n.renameTitle}
      okText={i18n.renameOk}
      cancelText={t.common.cancel}
      okButtonProps={{
        disabled: !checked.success,
        loading: rename.isPending,
        'data-testid': 'rename-confirm',
      }}
      onOk={save}
      onCancel={close}
      destroyOnHidden
      width={420}
    >
      <div className={styles.body}>
        <Input
          autoFocus
          value={value}
          maxLength={50}
          status={error ? 'error' : undefined}
          onChange={(e) => setTyped(filterInstanceName(e.target.value))}
          onPressEnter={save}
          aria-label={i18n.renameTitle}
          data-testid="rename-input"
        />
        {error ? (
          <div className={styles.fieldError} role="alert" data-testid="rename-error">
            {error}
          </div>
        ) : null}
      </div>
    </Modal>
  );
}
