import { UploadOutlined } from '@ant-design/icons';
import { UPLOAD_MAX_BYTES, UPLOAD_TYPES } from '@gpu/shared/tenant-admin';
import { Button } from 'antd';
import { useRef, useState } from 'react';
import { notify } from '../../../lib/feedback';
import { ta } from '../../../locales/zh-CN.admin';
import { uploadImage } from '../api/tenants';
import styles from './admin.module.css';

const m = ta.adminCatalogue.tenants;

/** An image URL form field: uploads the chosen file (type and size checked here and on the server). */
export function ImageUploadField({
  value,
  onChange,
  testId,
}: {
  value?: string;
  onChange?: (url: string) => void;
  testId?: string;
}) {
  const input = useRef<HTMLInputElement>(null);
  const [busy, setBusy] = useState(false);
  const pick = async (file: File | undefined) => {
    if (!file) return;
    if (!(UPLOAD_TYPES as readonly string[]).includes(file.type))
      return void notify('error', m.uploadBadType);
    if (file.size > UPLOAD_MAX_BYTES) return void notify('error', m.uploadTooLarge);
    setBusy(true);
    try {
      onChange?.(await uploadImage(file));
    } catch (e) {
      void notify('error', (e as Error).message);
    } finally {
      setBusy(false);
      if (input.current) input.current.value = '';
    }
  };
  return (
    <div className={styles.upload}>
      {value ? <img src={value} alt="" className={styles.uploadPreview} /> : null}
      <input
        ref={input}
        type="file"
        accept={UPLOAD_TYPES.join(',')}
        hidden
        data-testid={testId}
        onChange={(e) => void pick(e.target.files?.[0])}
      />
      <Button icon={<UploadOutlined />} loading={busy} onClick={() => input.current?.click()}>
        {m.upload}
      </Button>
      {value ? (
        <Button type="link" danger onClick={() => onChange?.('')}>
          {m.remove}
        </Button>
      ) : null}
      <span className={styles.muted}>{m.uploadHelp}</span>
    </div>
  );
}
