import { CopyOutlined } from '@ant-design/icons';
import { Button } from 'antd';
import { copyToClipboard } from '../../../lib/clipboard';
import { notify } from '../../../lib/feedback';
import { tapi } from '../../../locales/zh-CN.api';
import styles from './ApiOperation.module.css';

const s = tapi.docs;

/** A JSON example, indented, with a copy button. */
export function JsonBlock({ value, testId }: { value: unknown; testId?: string }) {
  const text = typeof value === 'string' ? value : JSON.stringify(value, null, 2);
  const copy = async () => {
    const done = await copyToClipboard(text);
    void notify(done ? 'success' : 'error', done ? s.copied : s.copyFailed);
  };
  return (
    <div className={styles.json}>
      <Button
        size="small"
        type="text"
        icon={<CopyOutlined />}
        onClick={copy}
        className={styles.copy}
        aria-label={s.copy}
      >
        {s.copy}
      </Button>
      <pre data-testid={testId}>{text}</pre>
    </div>
  );
}
