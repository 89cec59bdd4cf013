import { CopyOutlined } from '@ant-design/icons';
import type { AccessTokenCreated } from '@gpu/shared/access-tokens';
import { Alert, Button, Modal } from 'antd';
import { copyToClipboard } from '../../../lib/clipboard';
import { notify } from '../../../lib/feedback';
import { tapi } from '../../../locales/zh-CN.api';
import styles from './AccessTokensCard.module.css';

const s = tapi.tokens;

/** The commands the usage example shows, with this site's address and the new token. */
export const usageCommands = (token: string, origin: string) => ({
  curl: `curl -H "Authorization: Bearer ${token}" ${origin}/api/user/balance`,
  cli: `gpu login --api ${origin} --token ${token}`,
});

/**
 * The new token, this once: the server keeps only its hash, so closing this loses it. The mask
 * does not close it (a stray click), only the button, the × or Esc.
 */
export function TokenCreatedModal({
  created,
  onClose,
}: {
  created: AccessTokenCreated | null;
  onClose: () => void;
}) {
  const token = created?.token ?? '';
  const usage = usageCommands(token, window.location.origin);
  const copy = async () => {
    const done = await copyToClipboard(token);
    void notify(done ? 'success' : 'error', done ? s.copied : s.copyFailed);
  };
  return (
    <Modal
      open={created !== null}
      title={s.createdTitle}
      onCancel={onClose}
      maskClosable={false}
      destroyOnHidden
      footer={
        <Button type="primary" onClick={onClose} data-testid="access-token-done">
          {s.done}
        </Button>
      }
    >
      <div className={styles.created} data-testid="access-token-created">
        <Alert type="warning" showIcon title={s.createdWarning} />
        <div className={styles.tokenRow}>
          <code className={styles.token} data-testid="access-token-value">
            {token}
          </code>
          <Button icon={<CopyOutlined />} onClick={copy} data-testid="access-token-copy">
            {s.copy}
          </Button>
        </div>
        <div className={styles.usage}>
          <strong>{s.usage}</strong>
          <span>{s.usageCurl}</span>
          <pre className={styles.command}>{usage.curl}</pre>
          <span>{s.usageCli}</span>
          <pre className={styles.command}>{usage.cli}</pre>
        </div>
      </div>
    </Modal>
  );
}
