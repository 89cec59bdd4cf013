import { BILLING_TYPES } from '@gpu/shared/constants';
import { INSTANCE_STATUSES } from '@gpu/shared/labels';
import { Button, Card, Input, InputNumber, Progress, Select, Table } from 'antd';
import { PageHeader } from '../../../components/PageHeader';
import { t } from '../../../locales/zh-CN';
import { ta } from '../../../locales/zh-CN.admin';
import { type InstanceFilters, useAdminInstances, useMonitorStatistics } from '../api/instances';
import { LoadError } from '../components/LoadError';
import { OpsInstanceTable } from '../components/OpsInstanceTable';
import styles from '../components/ops.module.css';
import { RefreshButton } from '../components/RefreshButton';
import { StatCards } from '../components/StatCards';
import { useOpsActionFlow } from '../components/use-ops-action';
import { useOpsList } from '../components/use-ops-list';

const i18n = ta.adminOps;
const m = i18n.monitor;
const FIRST: InstanceFilters = { page: 1, size: 20 };

/**
 * /admin/instance-management: instances of every status across hosts, filtered by status and
 * searched on the server, force-stop of running ones, GPU states per model (the hosts module's one
 * definition, as on the hosts page) and today's revenue.
 */
export default function InstanceManagementPage() {
  const { query: filters, filter, keyword, setKeyword, reset, pagination } = useOpsList(FIRST);
  const list = useAdminInstances('all', filters);
  const stats = useMonitorStatistics();
  const flow = useOpsActionFlow();
  const s = stats.data;

  const refresh = () => {
    void list.refetch();
    void stats.refetch();
  };

  return (
    <div className={styles.page}>
      <PageHeader
        title={m.title}
        subtitle={m.subtitle}
        extra={<RefreshButton query={list} onClick={refresh} />}
      />
      <StatCards
        loading={stats.isPending}
        computedAt={stats.data?.computedAt}
        items={[
          { key: 'running', label: m.running, value: s?.running },
          { key: 'revenue', label: m.revenueToday, value: s?.revenueToday, money: true },
          { key: 'burn', label: m.hourlyBurn, value: s?.hourlyBurn, money: true },
          {
            key: 'gpus',
            label: m.gpuIdle,
            value: s
              ? `${s.gpus.reduce((n, g) => n + g.idle, 0)} / ${s.gpus.reduce((n, g) => n + g.total, 0)}`
              : '-',
          },
        ]}
      />
      <Card title={m.list}>
        <div className={styles.filters}>
          <Input.Search
            className={styles.keyword}
            placeholder={m.keyword}
            allowClear
            value={keyword}
            onChange={(e) => setKeyword(e.target.value)}
            onSearch={(v) => filter({ keyword: v.trim() || undefined })}
            enterButton={i18n.search}
            data-testid="ops-instance-search"
          />
          <Select
            className={styles.select}
            value={filters.status ?? ''}
            onChange={(v: string) => filter({ status: (v || undefined) as InstanceFilters['status'] })}
            options={[
              { value: '', label: i18n.instance.allStatuses },
              ...INSTANCE_STATUSES.map((st) => ({ value: st, label: t.instances.status[st] })),
            ]}
            data-testid="ops-status-filter"
          />
          <Select
            className={styles.select}
            value={filters.billingType ?? ''}
            onChange={(v: string) =>
              filter({ billingType: (v || undefined) as InstanceFilters['billingType'] })
            }
            options={[
              { value: '', label: i18n.instance.allBillingTypes },
              ...BILLING_TYPES.map((b) => ({ value: b, label: t.instances.billingType[b] })),
            ]}
          />
          <InputNumber
            className={styles.number}
            placeholder={m.hostId}
            min={1}
            precision={0}
            value={filters.hostId ?? null}
            onChange={(v) => filter({ hostId: v ?? undefined })}
          />
          <Button onClick={reset}>{i18n.reset}</Button>
        </div>
        {list.isError && !list.data ? (
          <LoadError onRetry={() => void list.refetch()} />
        ) : (
          <OpsInstanceTable
            data={list.data?.list ?? []}
            loading={list.isFetching}
            forceStop
            onAction={flow.open}
            pagination={pagination(list.data)}
          />
        )}
      </Card>
      <Card title={m.gpuStates}>
        <Table
          rowKey="model"
          size="small"
          data-testid="ops-gpu-states"
          loading={stats.isPending}
          dataSource={s?.gpus ?? []}
          pagination={false}
          scroll={{ x: 480 }}
          columns={[
            { title: m.gpuModel, dataIndex: 'model' },
            { title: m.idle, dataIndex: 'idle', align: 'right' },
            { title: m.busy, dataIndex: 'busy', align: 'right' },
            { title: m.reserved, dataIndex: 'reserved', align: 'right' },
            { title: m.totalGpus, dataIndex: 'total', align: 'right' },
            {
              title: m.usage,
              key: 'usage',
              width: 180,
              // Not idle over all, as 使用率 on the hosts page.
              render: (_: unknown, g: { idle: number; total: number }) => (
                <Progress
                  percent={g.total ? Math.round(((g.total - g.idle) / g.total) * 100) : 0}
                  size="small"
                  status="normal"
                  format={(p) => `${p}%`}
                />
              ),
            },
          ]}
        />
      </Card>
      {flow.dialog}
    </div>
  );
}
