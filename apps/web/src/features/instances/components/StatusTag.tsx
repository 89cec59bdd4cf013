import type { InstanceStatus } from '@gpu/shared';
import { Tag } from 'antd';
import { t } from '../../../locales/zh-CN';
import { STATUS_META } from '../instance-status';

/** The run state as a coloured tag with its Chinese name (spinning while in transition). */
export function StatusTag({ status }: { status: InstanceStatus }) {
  const meta = STATUS_META[status];
  return (
    <Tag color={meta.color} data-testid="instance-status" data-status={status}>
      {t.instances.status[status]}
    </Tag>
  );
}
