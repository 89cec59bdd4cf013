import { CopyOutlined, DownloadOutlined } from '@ant-design/icons';
import { Alert, Button, Modal, Space } from 'antd';
import { ta } from '../../../locales/zh-CN.admin';
import styles from './AdminSecurity.module.css';
import { copyText, downloadText } from './copy-text';

const s = ta.adminSecurity;

/** One-time recovery codes: shown once after enrolment or regeneration, to copy or download. */
export function RecoveryCodesModal({ codes, onClose }: { codes: string[] | null; onClose: () => void }) {
  const text = (codes ?? []).join('\n');
  return (
    <Modal
      open={codes !== null}
      title={s.recoveryTitle}
      closable={false}
      maskClosable={false}
      // Gone from the page once closed: shown once means once.
      destroyOnHidden
      keyboard={false}
      footer={
        <Button type="primary" onClick={onClose} data-testid="recovery-codes-saved">
          {s.saved}
        </Button>
      }
    >
      <Alert type="warning" showIcon title={s.recoveryHint} />
      <ol className={styles.codes} data-testid="recovery-codes">
        {(codes ?? []).map((c) => (
          <li key={c}>
            <code>{c}</code>
          </li>
        ))}
      </ol>
      <Space wrap>
        <Button icon={<CopyOutlined />} onClick={() => void copyText(text, s)} data-testid="recovery-copy">
          {s.copyAll}
        </Button>
        <Button
          icon={<DownloadOutlined />}
          onClick={() => downloadText(s.recoveryFileName, `${text}\n`)}
          data-testid="recovery-download"
        >
          {s.download}
        </Button>
      </Space>
    </Modal>
  );
}
