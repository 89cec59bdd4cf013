import { CopyOutlined } from '@ant-design/icons';
import { Alert, Button, Modal, Typography } from 'antd';
import { ta } from '../../../locales/zh-CN.admin';
import { copyText } from './copy-text';

const m = ta.adminStaff;

/** A password the server made (create, reset): shown this once, to copy and hand over. */
export function OneTimePasswordModal({
  shown,
  onClose,
}: {
  shown: { username: string; password: string; title: string } | null;
  onClose: () => void;
}) {
  return (
    <Modal
      open={shown !== null}
      title={shown?.title}
      closable={false}
      maskClosable={false}
      // Gone from the page once closed: shown once means once.
      destroyOnHidden
      footer={
        <Button type="primary" onClick={onClose} data-testid="one-time-password-close">
          {m.close}
        </Button>
      }
    >
      {shown ? (
        <>
          <Alert type="warning" showIcon title={m.passwordHint(shown.username)} />
          <p style={{ margin: '16px 0', fontSize: 20 }}>
            <Typography.Text code data-testid="one-time-password">
              {shown.password}
            </Typography.Text>{' '}
            <Button
              icon={<CopyOutlined />}
              size="small"
              onClick={() => void copyText(shown.password, m)}
              data-testid="one-time-password-copy"
            >
              {m.copy}
            </Button>
          </p>
        </>
      ) : null}
    </Modal>
  );
}
