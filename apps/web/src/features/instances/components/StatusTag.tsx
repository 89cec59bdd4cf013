import { SyncOutlined } from '@ant-design/icons';
import type { InstanceStatus } from '@gpu/shared/labels';
import { Tag } from 'antd';
import { t } from '../../../locales/zh-CN';
import { STATUS_META } from '../instance-status';
import styles from './StatusTag.module.css';

/**
 * The run state as a coloured tag with its Chinese name, spinning while in transition. A
 * create is accepted before its container exists (the server provisions it as a job), so
 * CREATING also says what is happening; the list polls every 2 s until it moves on.
 */
export function StatusTag({ status, noGpu = false }: { status: InstanceStatus; noGpu?: boolean }) {
  const meta = STATUS_META[status];
  return (
    <span className={styles.stack}>
      <Tag
        color={meta.color}
        icon={meta.transitional ? <SyncOutlined spin data-testid="status-spinner" /> : undefined}
        data-testid="instance-status"
        data-status={status}
      >
        {t.instances.status[status]}
      </Tag>
      {noGpu ? (
        // No-GPU mode (issue 30): running without GPUs, at the no-GPU price.
        <Tag color="gold" bordered={false} data-testid="instance-nogpu">
          {t.instances.noGpu.tag}
        </Tag>
      ) : null}
      {status === 'CREATING' ? (
        <div data-testid="instance-progress" className={styles.progress}>
          {t.instances.creatingProgress}
        </div>
      ) : null}
    </span>
  );
}
