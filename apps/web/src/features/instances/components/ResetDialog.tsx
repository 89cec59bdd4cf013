import type { Instance } from '@gpu/shared/instances';
import { Alert, Checkbox, Modal, Select } from 'antd';
import { useState } from 'react';
import { t } from '../../../locales/zh-CN';
import { useLocalImages } from '../api/reset-instance';
import { canReset } from '../instance-status';
import styles from './dialogs.module.css';

const i18n = t.instances;

/**
 * Reset system (重置系统) or change image (更换镜像): says what is lost (the system disk) and
 * what is kept (the data volume, the addresses and secrets), asks to tick that it is
 * understood, and for a change the new image. Only a powered-off instance can be reset.
 */
export function ResetDialog({
  inst,
  changeImage,
  onConfirm,
  onClose,
}: {
  inst: Instance | null;
  changeImage: boolean;
  onConfirm: (inst: Instance, image?: string) => void;
  onClose: () => void;
}) {
  const [understood, setUnderstood] = useState(false);
  const [image, setImage] = useState<string | undefined>(undefined);
  const images = useLocalImages(inst !== null && changeImage);
  // The images of the instance's GPU brand, known from its current image (the server checks it too).
  const list = images.data?.imageList ?? [];
  const brand = list.find((i) => i.imageUrl === inst?.image)?.gpuBrand;
  const options = list
    .filter((i) => (brand ? i.gpuBrand === brand : true) && i.imageUrl !== inst?.image)
    .map((i) => ({ value: i.imageUrl, label: `${i.imageName} · ${i.imageUrl}` }));
  const ready = inst !== null && canReset(inst) && understood && (!changeImage || Boolean(image));
  const close = () => {
    setUnderstood(false);
    setImage(undefined);
    onClose();
  };
  const title = inst ? (changeImage ? i18n.changeImageTitle(inst.name) : i18n.resetTitle(inst.name)) : '';
  return (
    <Modal
      open={inst !== null}
      title={title}
      okText={changeImage ? i18n.changeImageOk : i18n.resetOk}
      cancelText={t.common.cancel}
      okButtonProps={{ danger: true, disabled: !ready, 'data-testid': 'reset-confirm' }}
      onOk={() => {
        if (inst && ready) onConfirm(inst, changeImage ? image : undefined);
        close();
      }}
      onCancel={close}
      destroyOnHidden
      width={520}
    >
      {inst ? (
        <div className={styles.body} data-testid="reset-dialog">
          {inst.status !== 'STOPPED' ? (
            <Alert type="warning" showIcon title={i18n.resetStopFirst} data-testid="reset-stop-first" />
          ) : null}
          <Alert type="error" showIcon title={i18n.resetLost} data-testid="reset-lost" />
          <Alert
            type="info"
            showIcon
            title={inst.dataMountPath ? i18n.resetKept(inst.dataMountPath) : i18n.resetKeptNoDisk}
            data-testid="reset-kept"
          />
          <p className={styles.prompt}>
            {i18n.resetCurrentImage}：<code>{inst.image}</code>
          </p>
          {changeImage ? (
            <Select
              showSearch
              value={image}
              placeholder={i18n.resetPickImage}
              options={options}
              loading={images.isLoading}
              notFoundContent={images.isError ? i18n.resetImagesFailed : undefined}
              onChange={setImage}
              aria-label={i18n.resetNewImage}
              data-testid="reset-image"
              className={styles.select}
            />
          ) : null}
          <Checkbox
            checked={understood}
            onChange={(e) => setUnderstood(e.target.checked)}
            data-testid="reset-understood"
          >
            {i18n.resetConfirm}
          </Checkbox>
        </div>
      ) : null}
    </Modal>
  );
}
