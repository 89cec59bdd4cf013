import { ExclamationCircleFilled } from '@ant-design/icons';
import type { Instance } from '@gpu/shared/instances';
import { Table, type TableProps, Tooltip } from 'antd';
import { t } from '../../../locales/zh-CN';
import { GuardMarker } from '../../guards';
import { inNoGpuMode, instanceNotice, type RowAction } from '../instance-status';
import { AccessInfo } from './AccessInfo';
import { BillingCell, GpuCell, TimeCell } from './cells';
import { FailureNote } from './FailureNote';
import { InstanceActions } from './InstanceActions';
import { NameCell } from './InstanceName';
import { noticeText } from './InstanceNotices';
import styles from './InstanceTable.module.css';
import { MonitorCell } from './MonitorCell';
import { StatusTag } from './StatusTag';

const c = t.instances.columns;

export interface InstanceListProps {
  instances: Instance[];
  now: Date;
  busy: (id: number) => boolean;
  onAction: (action: RowAction, inst: Instance) => void;
  loading?: boolean;
  pagination?: TableProps<Instance>['pagination'];
  /** Last hour of each running instance's busiest GPU, by uuid (one request for the page). */
  sparklines?: ReadonlyMap<string, number[]>;
}

/** Desktop: one row per instance. */
export function InstanceTable({
  instances,
  now,
  busy,
  onAction,
  loading,
  pagination,
  sparklines,
}: InstanceListProps) {
  const columns: TableProps<Instance>['columns'] = [
    {
      key: 'name',
      title: c.instance,
      width: 200,
      render: (_, inst) => <NameCell inst={inst} onRename={(i) => onAction('rename', i)} />,
    },
    {
      key: 'status',
      title: c.status,
      width: 100,
      render: (_, inst) => {
        const notice = instanceNotice(inst, now);
        return (
          <span className={styles.status}>
            <StatusTag status={inst.status} noGpu={inNoGpuMode(inst)} />
            {notice ? (
              <Tooltip title={noticeText(notice)}>
                <ExclamationCircleFilled className={styles[notice.level]} aria-label={noticeText(notice)} />
              </Tooltip>
            ) : null}
            <GuardMarker inst={inst} />
          </span>
        );
      },
    },
    {
      key: 'gpu',
      title: c.gpu,
      width: 150,
      // The GPUs' last hour and 监控 under them: a column of its own would squeeze 访问方式 at 1440 px.
      render: (_, inst) => (
        <div className={styles.gpu}>
          <GpuCell inst={inst} />
          <MonitorCell inst={inst} sparklines={sparklines} onAction={onAction} />
        </div>
      ),
    },
    {
      key: 'billing',
      title: c.billing,
      width: 140,
      render: (_, inst) => <BillingCell inst={inst} charged />,
    },
    { key: 'time', title: c.time, width: 200, render: (_, inst) => <TimeCell inst={inst} now={now} /> },
    {
      key: 'access',
      title: c.access,
      render: (_, inst) =>
        inst.status === 'FAILED' ? (
          <FailureNote inst={inst} />
        ) : (
          <AccessInfo inst={inst} onConnect={(i) => onAction('connect', i)} />
        ),
    },
    {
      key: 'actions',
      title: c.actions,
      // Wide enough for 重新创建 (a failed create) on one line.
      width: 124,
      fixed: 'right',
      render: (_, inst) => (
        <InstanceActions inst={inst} now={now} busy={busy(inst.id)} onAction={onAction} layout="column" />
      ),
    },
  ];
  return (
    <Table<Instance>
      rowKey="id"
      columns={columns}
      dataSource={instances}
      loading={loading}
      pagination={pagination}
      scroll={{ x: 1120 }}
      className={styles.table}
      onRow={(inst) => ({ 'data-testid': `instance-row-${inst.id}` }) as object}
    />
  );
}
