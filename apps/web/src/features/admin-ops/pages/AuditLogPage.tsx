import { ReloadOutlined } from '@ant-design/icons';
import type { AuditLogEntry } from '@gpu/shared/audit';
import { formatTime } from '@gpu/shared/time';
import { Button, Card, DatePicker, Grid, Input, InputNumber, Select, Table, type TableProps } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { type HTMLAttributes, useState } from 'react';
import { PageHeader } from '../../../components/PageHeader';
import { t } from '../../../locales/zh-CN';
import { type AuditFilters, useAuditActions, useAuditLogs } from '../api/audit';
import { AuditDetailDrawer, actionName } from '../components/AuditDetailDrawer';
import { LoadError } from '../components/LoadError';
import styles from '../components/ops.module.css';

const i18n = t.adminOps;
const a = i18n.audit;
const DAY = 'YYYY-MM-DD';
const FIRST: AuditFilters = { page: 1, size: 20 };
const toDay = (v?: string) => (v ? dayjs(v, DAY) : null);

/** /admin/audit-logs: every admin write, filtered by admin, action, target and day; details in a drawer. */
export default function AuditLogPage() {
  const [filters, setFilters] = useState<AuditFilters>(FIRST);
  const [target, setTarget] = useState('');
  const [open, setOpen] = useState<AuditLogEntry | null>(null);
  const logs = useAuditLogs(filters);
  const actions = useAuditActions();
  const mobile = Grid.useBreakpoint().md === false;
  const set = (patch: Partial<AuditFilters>) => setFilters({ ...filters, page: 1, ...patch });

  const columns: TableProps<AuditLogEntry>['columns'] = [
    { title: a.time, dataIndex: 'createdAt', width: 170, render: (v: string) => formatTime(v) },
    { title: a.admin, dataIndex: 'adminName', width: 120, render: (v: string | null) => v ?? '-' },
    {
      title: a.action,
      dataIndex: 'action',
      width: 170,
      render: (v: string) => (
        <>
          {actionName(v)}
          <span className={styles.sub}>{v}</span>
        </>
      ),
    },
    {
      title: a.target,
      dataIndex: 'target',
      width: 150,
      render: (v: string | null) => <span className={styles.mono}>{v ?? '-'}</span>,
    },
    { title: a.ip, dataIndex: 'ip', width: 130, render: (v: string | null) => v ?? '-' },
    {
      title: i18n.actions,
      key: 'detail',
      width: 80,
      fixed: 'right',
      render: (_: unknown, r) => (
        <Button type="link" size="small" onClick={() => setOpen(r)} data-testid="audit-detail-open">
          {i18n.detail}
        </Button>
      ),
    },
  ];

  return (
    <div className={styles.page}>
      <PageHeader
        title={a.title}
        subtitle={a.subtitle}
        extra={
          <Button
            icon={<ReloadOutlined />}
            onClick={() => void logs.refetch()}
            loading={logs.isFetching && !logs.isPending}
          >
            {i18n.refresh}
          </Button>
        }
      />
      <Card>
        <div className={styles.filters}>
          <Select
            className={styles.select}
            value={filters.action ?? ''}
            onChange={(v: string) => set({ action: v || undefined })}
            showSearch
            options={[
              { value: '', label: a.allActions },
              ...(actions.data ?? []).map((x) => ({ value: x, label: actionName(x) })),
            ]}
            aria-label={a.action}
            data-testid="audit-action-filter"
          />
          <Input.Search
            className={styles.keyword}
            placeholder={a.targetPlaceholder}
            allowClear
            value={target}
            onChange={(e) => setTarget(e.target.value)}
            onSearch={(v) => set({ target: v.trim() || undefined })}
            enterButton={i18n.search}
            aria-label={a.target}
            data-testid="audit-target-filter"
          />
          <InputNumber
            className={styles.number}
            placeholder={a.adminId}
            min={1}
            precision={0}
            value={filters.adminId ?? null}
            onChange={(v) => set({ adminId: v ?? undefined })}
          />
          <DatePicker.RangePicker
            placeholder={[i18n.startDate, i18n.endDate]}
            allowEmpty={[true, true]}
            inputReadOnly={mobile}
            value={[toDay(filters.startDate), toDay(filters.endDate)]}
            onChange={(range) => {
              const r = range as [Dayjs | null, Dayjs | null] | null;
              set({ startDate: r?.[0]?.format(DAY), endDate: r?.[1]?.format(DAY) });
            }}
          />
          <Button
            onClick={() => {
              setTarget('');
              setFilters(FIRST);
            }}
          >
            {i18n.reset}
          </Button>
        </div>
        {logs.isError && !logs.data ? (
          <LoadError onRetry={() => void logs.refetch()} />
        ) : (
          <Table<AuditLogEntry>
            rowKey="id"
            size="middle"
            columns={columns}
            dataSource={logs.data?.list ?? []}
            loading={logs.isFetching}
            scroll={{ x: 'max-content' }}
            locale={{ emptyText: a.empty }}
            onRow={(r) =>
              ({ 'data-testid': 'audit-row', onDoubleClick: () => setOpen(r) }) as HTMLAttributes<HTMLElement>
            }
            pagination={{
              current: filters.page,
              pageSize: filters.size,
              total: logs.data?.total ?? 0,
              showTotal: mobile ? undefined : i18n.total,
              size: mobile ? 'small' : undefined,
              onChange: (page, size) =>
                setFilters({ ...filters, page: size !== filters.size ? 1 : page, size }),
            }}
          />
        )}
      </Card>
      <AuditDetailDrawer entry={open} onClose={() => setOpen(null)} />
    </div>
  );
}
