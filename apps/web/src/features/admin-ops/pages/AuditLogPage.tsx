import type { AuditLogEntry } from '@gpu/shared/audit';
import { formatTime } from '@gpu/shared/time';
import { Button, Card, Input, Select, type TableProps } from 'antd';
import { type HTMLAttributes, useState } from 'react';
import { DayRangeFilter } from '../../../components/admin/DayRangeFilter';
import { PagedTable } from '../../../components/admin/PagedTable';
import { PageHeader } from '../../../components/PageHeader';
import { Token } from '../../../components/Token';
import { ta } from '../../../locales/zh-CN.admin';
import { type AuditFilters, useAuditActions, useAuditAdmins, useAuditLogs } from '../api/audit';
import { AuditDetailDrawer } from '../components/AuditDetailDrawer';
import { actionName, targetName, targetQuery } from '../components/audit-labels';
import { LoadError } from '../components/LoadError';
import styles from '../components/ops.module.css';
import { RefreshButton } from '../components/RefreshButton';
import { useOpsList } from '../components/use-ops-list';

const i18n = ta.adminOps;
const a = i18n.audit;
const FIRST: AuditFilters = { page: 1, size: 20 };

/** /admin/audit-logs: every admin write, filtered by admin, action, target and day; details in a drawer. */
export default function AuditLogPage() {
  const {
    query: filters,
    filter: set,
    keyword: target,
    setKeyword: setTarget,
    reset,
    mobile,
    pagination,
  } = useOpsList(FIRST);
  const [open, setOpen] = useState<AuditLogEntry | null>(null);
  const logs = useAuditLogs(filters);
  const actions = useAuditActions();
  const admins = useAuditAdmins();

  const columns: TableProps<AuditLogEntry>['columns'] = [
    // On a phone (as on the other ops screens) the first column stays while the rest scroll
    // sideways; there the time takes two lines so the administrator beside it fits too.
    {
      title: a.time,
      dataIndex: 'createdAt',
      fixed: 'left',
      width: mobile ? 100 : 170,
      render: (v: string) =>
        mobile ? (
          <>
            {formatTime(v, 'YYYY-MM-DD')}
            <span className={styles.sub}>{formatTime(v, 'HH:mm:ss')}</span>
          </>
        ) : (
          formatTime(v)
        ),
    },
    // Administrators are named people now (issue 29): a name like ops-zhang stays on one line.
    {
      title: a.admin,
      dataIndex: 'adminName',
      width: 120,
      render: (v: string | null) => (v ? <Token>{v}</Token> : '-'),
    },
    {
      title: a.action,
      dataIndex: 'action',
      width: 170,
      render: (v: string) => actionName(v),
    },
    {
      title: a.target,
      dataIndex: 'target',
      width: 150,
      // A username (sign-ins) or `实例 #12`: one line either way.
      render: (v: string | null, r) => <Token>{targetName(v, r.action)}</Token>,
    },
    { title: a.ip, dataIndex: 'ip', width: 130, render: (v: string | null) => v ?? '-' },
    {
      title: i18n.actions,
      key: 'detail',
      width: 80,
      // A fixed column on each side would leave a phone no room between them: there the link
      // scrolls with the row, and a tap on the row opens the details.
      fixed: mobile ? undefined : 'right',
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
        extra={<RefreshButton query={logs} onClick={() => void logs.refetch()} />}
      />
      <Card>
        <div className={styles.filters}>
          <Select
            className={styles.select}
            value={filters.action ?? ''}
            onChange={(v: string) => set({ action: v || undefined })}
            showSearch
            optionFilterProp="label"
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
            onSearch={(v) => set({ target: targetQuery(v) || undefined })}
            enterButton={i18n.search}
            aria-label={a.target}
            data-testid="audit-target-filter"
          />
          <Select
            className={styles.select}
            value={filters.adminId ?? 0}
            onChange={(v: number) => set({ adminId: v || undefined })}
            showSearch
            optionFilterProp="label"
            loading={admins.isPending}
            options={[
              { value: 0, label: a.allAdmins },
              ...(admins.data ?? []).map((x) => ({
                value: x.adminId,
                label: x.adminName ?? a.deletedAdmin(x.adminId),
              })),
            ]}
            aria-label={a.admin}
            data-testid="audit-admin-filter"
          />
          <DayRangeFilter
            placeholder={[i18n.startDate, i18n.endDate]}
            mobile={mobile}
            startDate={filters.startDate}
            endDate={filters.endDate}
            onChange={set}
          />
          <Button onClick={reset}>{i18n.reset}</Button>
        </div>
        {logs.isError && !logs.data ? (
          <LoadError onRetry={() => void logs.refetch()} />
        ) : (
          <PagedTable<AuditLogEntry>
            list={logs}
            columns={columns}
            scroll={{ x: 'max-content' }}
            locale={{ emptyText: a.empty }}
            onRow={(r) =>
              ({
                'data-testid': 'audit-row',
                onDoubleClick: () => setOpen(r),
                onClick: mobile ? () => setOpen(r) : undefined,
              }) as HTMLAttributes<HTMLElement>
            }
            pagination={pagination(logs.data)}
          />
        )}
      </Card>
      <AuditDetailDrawer entry={open} onClose={() => setOpen(null)} />
    </div>
  );
}
