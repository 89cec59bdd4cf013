import { formatMoney } from '@gpu/shared/money';
import type { AdminUser, AdminUserSort } from '@gpu/shared/operations';
import { formatTime } from '@gpu/shared/time';
import { Button, Card, Drawer, Grid, Input, Select, type TableProps, Tag } from 'antd';
import { type HTMLAttributes, useState } from 'react';
import { DayRangeFilter } from '../../../components/admin/DayRangeFilter';
import { PagedTable } from '../../../components/admin/PagedTable';
import { PageHeader } from '../../../components/PageHeader';
import { useAdminCan } from '../../../lib/admin-access';
import { ta } from '../../../locales/zh-CN.admin';
import { useTenants } from '../../admin-catalogue';
import { useAdminInstances } from '../api/instances';
import { type UserFilters, useAdminUsers, useUserStatistics } from '../api/users';
import { AdjustBalanceModal } from '../components/AdjustBalanceModal';
import { LoadError } from '../components/LoadError';
import { OpsInstanceTable } from '../components/OpsInstanceTable';
import styles from '../components/ops.module.css';
import { RefreshButton } from '../components/RefreshButton';
import { StatCards } from '../components/StatCards';
import { useOpsActionFlow } from '../components/use-ops-action';
import { useOpsList } from '../components/use-ops-list';

const i18n = ta.adminOps;
const u = i18n.users;
const FIRST: UserFilters = { page: 1, size: 20 };

/** One user's instances with power off / start / terminate (each asks for a reason). */
function UserInstancesDrawer({ user, onClose }: { user: AdminUser | null; onClose: () => void }) {
  const [page, setPage] = useState(1);
  const mobile = Grid.useBreakpoint().md === false;
  const list = useAdminInstances('user', { page, size: 10, userId: user?.id }, user !== null);
  const flow = useOpsActionFlow();
  return (
    <Drawer
      open={user !== null}
      onClose={onClose}
      title={user ? u.instancesTitle(user.phone) : ''}
      size={mobile ? '100%' : 960}
      destroyOnHidden
      afterOpenChange={(o) => !o && setPage(1)}
    >
      <OpsInstanceTable
        data={list.data?.list ?? []}
        loading={list.isFetching}
        showUser={false}
        onAction={flow.open}
        pagination={{ current: page, pageSize: 10, total: list.data?.total ?? 0, onChange: setPage }}
      />
      {flow.dialog}
    </Drawer>
  );
}

/** /admin/user-management: users with balance and spend, their instances, balance adjustment. */
export default function UserManagementPage() {
  const { query: filters, filter: set, keyword, setKeyword, reset, mobile, pagination } = useOpsList(FIRST);
  const [instancesOf, setInstancesOf] = useState<AdminUser | null>(null);
  const [adjusting, setAdjusting] = useState<AdminUser | null>(null);
  const tenants = useTenants();
  const users = useAdminUsers(filters);
  const stats = useUserStatistics();
  const s = stats.data;
  /** antd's sort state of a column from the filters (one sorted column at a time, server-side). */
  const sorted = (by: AdminUserSort) => ({
    sorter: true,
    sortOrder:
      (filters.sortBy ?? 'createdAt') === by
        ? filters.order === 'asc'
          ? ('ascend' as const)
          : ('descend' as const)
        : null,
  });

  // Adjusting a balance is finance's: the other roles see the user's instances only.
  const canAdjust = useAdminCan('finance:write');
  const columns: TableProps<AdminUser>['columns'] = [
    {
      title: u.phone,
      dataIndex: 'phone',
      fixed: 'left',
      width: 130,
      render: (_: string, r) => (
        <>
          {r.phone}
          <span className={styles.sub}>{r.username !== r.phone ? r.username : `#${r.id}`}</span>
        </>
      ),
    },
    { title: u.tenant, dataIndex: 'tenantName', width: 110 },
    {
      title: u.status,
      dataIndex: 'status',
      width: 70,
      render: (v: string) => <Tag color={v === 'ACTIVE' ? 'success' : 'default'}>{u.statuses[v] ?? v}</Tag>,
    },
    {
      title: u.available,
      dataIndex: 'available',
      width: 120,
      ...sorted('available'),
      align: 'right',
      render: (v: number) => (
        <span className={`${styles.money} ${v < 0 ? styles.negative : ''}`}>{formatMoney(v)}</span>
      ),
    },
    {
      title: u.totalSpend,
      dataIndex: 'totalSpend',
      width: 120,
      ...sorted('totalSpend'),
      align: 'right',
      render: (v: number) => <span className={styles.money}>{formatMoney(v)}</span>,
    },
    {
      title: u.instances,
      key: 'instances',
      width: 110,
      render: (_: unknown, r) => u.instancesValue(r.runningInstances, r.instances),
    },
    {
      title: u.createdAt,
      dataIndex: 'createdAt',
      width: 140,
      ...sorted('createdAt'),
      render: (v: string) => formatTime(v, 'YYYY-MM-DD HH:mm'),
    },
    {
      title: u.lastLoginAt,
      dataIndex: 'lastLoginAt',
      width: 140,
      render: (v: string | null) => formatTime(v, 'YYYY-MM-DD HH:mm'),
    },
    {
      title: i18n.actions,
      key: 'actions',
      fixed: 'right',
      width: 140,
      render: (_: unknown, r) => (
        <div className={styles.actions}>
          <Button size="small" onClick={() => setInstancesOf(r)} data-testid="user-instances">
            {u.viewInstances}
          </Button>
          {canAdjust ? (
            <Button size="small" onClick={() => setAdjusting(r)} data-testid="user-adjust">
              {i18n.balance.adjust}
            </Button>
          ) : null}
        </div>
      ),
    },
  ];

  return (
    <div className={styles.page}>
      <PageHeader
        title={u.title}
        subtitle={u.subtitle}
        extra={
          <RefreshButton
            query={users}
            onClick={() => {
              void users.refetch();
              void stats.refetch();
            }}
          />
        }
      />
      <StatCards
        loading={stats.isPending}
        computedAt={stats.data?.computedAt}
        items={[
          { key: 'users', label: u.totalUsers, value: s?.totalUsers },
          { key: 'new', label: u.newToday, value: s?.newToday },
          { key: 'active', label: u.activeUsers, value: s?.activeUsers },
          { key: 'balance', label: u.totalBalance, value: s?.totalBalance, money: true },
          { key: 'spend', label: u.allSpend, value: s?.totalSpend, money: true },
        ]}
      />
      <Card>
        <div className={styles.filters}>
          <Input.Search
            className={styles.keyword}
            placeholder={u.keyword}
            allowClear
            value={keyword}
            onChange={(e) => setKeyword(e.target.value)}
            onSearch={(v) => set({ keyword: v.trim() || undefined })}
            enterButton={i18n.search}
            data-testid="user-search"
          />
          <Select
            className={styles.number}
            placeholder={u.tenantId}
            allowClear
            loading={tenants.isLoading}
            value={filters.tenantId ?? null}
            onChange={(v: number | null) => set({ tenantId: v ?? undefined })}
            options={(tenants.data ?? []).map((x) => ({ value: x.id, label: x.name }))}
            data-testid="user-tenant-filter"
          />
          <DayRangeFilter
            placeholder={[i18n.startDate, i18n.endDate]}
            mobile={mobile}
            startDate={filters.startDate}
            endDate={filters.endDate}
            onChange={set}
            aria-label={u.registered}
          />
          <Button onClick={reset}>{i18n.reset}</Button>
        </div>
        {users.isError && !users.data ? (
          <LoadError onRetry={() => void users.refetch()} />
        ) : (
          <PagedTable<AdminUser>
            list={users}
            columns={columns}
            scroll={{ x: 'max-content' }}
            locale={{ emptyText: u.empty }}
            onRow={(r) => ({ 'data-testid': `user-row-${r.id}` }) as HTMLAttributes<HTMLElement>}
            onChange={(_p, _f, sorter, extra) => {
              if (extra.action !== 'sort' || Array.isArray(sorter)) return;
              const by = sorter.order ? (sorter.field as AdminUserSort) : undefined;
              set({ sortBy: by, order: by ? (sorter.order === 'ascend' ? 'asc' : 'desc') : undefined });
            }}
            pagination={pagination(users.data)}
          />
        )}
      </Card>
      <UserInstancesDrawer user={instancesOf} onClose={() => setInstancesOf(null)} />
      <AdjustBalanceModal user={adjusting} onClose={() => setAdjusting(null)} />
    </div>
  );
}
