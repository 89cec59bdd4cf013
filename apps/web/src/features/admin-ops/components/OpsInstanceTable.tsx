import { SyncOutlined } from '@ant-design/icons';
import { formatMoney } from '@gpu/shared/money';
import type { AdminInstance } from '@gpu/shared/operations';
import { formatTime } from '@gpu/shared/time';
import { Button, Table, type TableProps, Tag } from 'antd';
import type { HTMLAttributes } from 'react';
import { Token } from '../../../components/Token';
import { useAdminCan } from '../../../lib/admin-access';
import { t } from '../../../locales/zh-CN';
import { ta } from '../../../locales/zh-CN.admin';
import { STATUS_META } from '../../instances';
import type { OpsAction } from '../api/instances';
import styles from './ops.module.css';

const i18n = ta.adminOps;
const c = i18n.instance;

/** Which admin actions an instance allows now (the lifecycle's own rules). */
export function opsActionsFor(inst: Pick<AdminInstance, 'status'>, forceStop: boolean): OpsAction[] {
  if (forceStop) return inst.status === 'RUNNING' ? ['force-stop'] : [];
  const out: OpsAction[] = [];
  if (inst.status === 'RUNNING') out.push('power-off');
  if (inst.status === 'STOPPED') out.push('start');
  if (inst.status === 'RUNNING' || inst.status === 'STOPPED') out.push('terminate');
  // Reset system: only powered off (the server refuses hosts that cannot recreate, with a reason).
  if (inst.status === 'STOPPED') out.push('reset-system');
  return out;
}

/** What the instance costs: a package per its period (¥88.00/天), pay-as-you-go per hour. */
export const priceOf = (r: Pick<AdminInstance, 'billingType' | 'hourlyPrice' | 'packagePrice'>) =>
  r.billingType !== 'hourly' && r.packagePrice !== null
    ? `${formatMoney(r.packagePrice)}${t.instances.perPeriod[r.billingType]}`
    : `${formatMoney(r.hourlyPrice)}${c.perHour}`;

/** Instances across users and hosts, with the admin's actions. */
export function OpsInstanceTable({
  data,
  loading,
  pagination,
  forceStop = false,
  showUser = true,
  onAction,
}: {
  data: AdminInstance[];
  loading: boolean;
  pagination: TableProps<AdminInstance>['pagination'];
  forceStop?: boolean;
  showUser?: boolean;
  onAction: (inst: AdminInstance, action: OpsAction) => void;
}) {
  // Power actions and force stop change instances: without instances:write the list is read only.
  const canWrite = useAdminCan('instances:write');
  const columns: NonNullable<TableProps<AdminInstance>['columns']> = [
    {
      title: c.name,
      dataIndex: 'name',
      fixed: 'left',
      width: 140,
      render: (_: string, r) => (
        <>
          <strong className={styles.block}>
            <Token>{r.name}</Token>
          </strong>
          <span className={styles.sub}>#{r.id}</span>
        </>
      ),
    },
    ...(showUser
      ? [
          {
            title: c.user,
            dataIndex: 'userPhone',
            width: 130,
            render: (_: string, r: AdminInstance) => (
              <>
                {r.userPhone}
                <span className={styles.sub}>{r.tenantName}</span>
              </>
            ),
          },
        ]
      : []),
    {
      title: c.status,
      dataIndex: 'status',
      width: 80,
      render: (_: string, r) => (
        <Tag
          color={STATUS_META[r.status].color}
          icon={
            STATUS_META[r.status].transitional ? (
              <SyncOutlined spin data-testid="ops-status-spinner" />
            ) : undefined
          }
          data-testid="ops-instance-status"
          data-status={r.status}
        >
          {t.instances.status[r.status]}
        </Tag>
      ),
    },
    {
      title: c.gpu,
      dataIndex: 'gpuModel',
      width: 130,
      render: (_: string, r) => (
        <>
          {r.gpuModel} × {r.gpuCount}
          {r.status === 'RUNNING' ? <span className={styles.sub}>{c.gpuIndices(r.gpuIndices)}</span> : null}
        </>
      ),
    },
    {
      title: c.host,
      dataIndex: 'hostName',
      width: 140,
      render: (_: string, r) => (
        <>
          {r.hostName}
          <span className={styles.sub}>{r.regionName}</span>
        </>
      ),
    },
    {
      title: c.billing,
      dataIndex: 'billingType',
      width: 110,
      render: (_: string, r) => (
        <>
          {t.instances.billingType[r.billingType]}
          <span className={`${styles.sub} ${styles.money}`} data-testid="ops-instance-price">
            {priceOf(r)}
          </span>
        </>
      ),
    },
    {
      title: c.charged,
      dataIndex: 'charged',
      width: 90,
      align: 'right',
      render: (v: number) => <span className={styles.money}>{formatMoney(v)}</span>,
    },
    {
      title: c.runningSince,
      dataIndex: 'runningSince',
      width: 150,
      render: (_: string, r) => (
        <>
          <span className={styles.nowrap}>
            {formatTime(r.runningSince ?? r.createdAt, 'YYYY-MM-DD HH:mm')}
          </span>
          {r.stopReason && r.status !== 'RUNNING' ? <span className={styles.sub}>{r.stopReason}</span> : null}
        </>
      ),
    },
  ];
  if (canWrite)
    columns.push({
      title: i18n.actions,
      key: 'actions',
      fixed: 'right',
      width: forceStop ? 100 : 140,
      render: (_: unknown, r) => (
        <div className={styles.actions}>
          {opsActionsFor(r, forceStop).map((a) => (
            <Button
              key={a}
              size="small"
              danger={a !== 'start'}
              type={a === 'start' ? 'primary' : 'default'}
              onClick={() => onAction(r, a)}
              data-testid={`ops-action-${a}`}
            >
              {i18n.instanceActions[a].label}
            </Button>
          ))}
        </div>
      ),
    });
  return (
    <Table<AdminInstance>
      rowKey="id"
      size="middle"
      columns={columns}
      dataSource={data}
      loading={loading}
      pagination={pagination}
      scroll={{ x: 'max-content' }}
      locale={{ emptyText: c.empty }}
      onRow={(r) => ({ 'data-testid': `ops-instance-${r.id}` }) as HTMLAttributes<HTMLElement>}
    />
  );
}
