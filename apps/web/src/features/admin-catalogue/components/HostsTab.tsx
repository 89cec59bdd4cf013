import type { HostView } from '@gpu/shared/hosts';
import { formatCount } from '@gpu/shared/money';
import { Button, Input, Select, type TableProps, Tag } from 'antd';
import { Suspense, useState } from 'react';
import { ComputedAt } from '../../../components/admin/ComputedAt';
import { ConfirmButton } from '../../../components/admin/ConfirmButton';
import { paging, useListQuery } from '../../../components/admin/list-query';
import { PagedTable } from '../../../components/admin/PagedTable';
import { StatCard, StatGrid } from '../../../components/StatCard';
import { useAdminCan } from '../../../lib/admin-access';
import { notify } from '../../../lib/feedback';
import { ta } from '../../../locales/zh-CN.admin';
import { HostMetricsDrawer } from '../../monitoring';
import { useRegions } from '../api/catalogue';
import {
  type HostFilters,
  useDeleteHost,
  useHostStatistics,
  useHostStatus,
  useHosts,
  useInitPorts,
  useTestConnection,
} from '../api/hosts';
import styles from './admin.module.css';
import { HostDetailDrawer } from './HostDetailDrawer';
import { HostFormModal } from './HostFormModal';
import { useAdminLayout } from './responsive';
import { DeleteAction, ToggleAction } from './ToggleAction';

const c = ta.adminCatalogue;
const h = c.hosts;
const STATUS_COLORS: Record<string, string> = { ACTIVE: 'green', DISABLED: 'default', MAINTENANCE: 'orange' };

/** Hosts (SPEC.md §7 Hosts): statistics, list with status, GPUs and ports, and the actions. */
export function HostsTab() {
  const { query: filters, setQuery: setFilters, filter } = useListQuery<HostFilters>({ page: 1, size: 10 });
  const hosts = useHosts(filters);
  const stats = useHostStatistics();
  const regions = useRegions();
  const setStatus = useHostStatus();
  const remove = useDeleteHost();
  const initPorts = useInitPorts();
  const probe = useTestConnection();
  const { scrollX } = useAdminLayout();
  const canWrite = useAdminCan('hosts:write');
  const [form, setForm] = useState<{ open: boolean; host: HostView | null }>({ open: false, host: null });
  const [detail, setDetail] = useState<number | null>(null);
  const [monitoring, setMonitoring] = useState<HostView | null>(null);

  const test = async (id: number) => {
    const r = await probe.mutateAsync(id).catch(() => null);
    if (!r) return;
    if (r.reachable) void notify('success', h.probeOk(r.engineVersion, r.gpus.length), 6);
    else void notify('error', h.probeFailed(r.error ?? ''), 8);
  };

  const s = stats.data;
  const columns: NonNullable<TableProps<HostView>['columns']> = [
    {
      title: h.name,
      dataIndex: 'name',
      render: (v: string, row) => (
        <Button type="link" size="small" onClick={() => setDetail(row.id)} style={{ padding: 0 }}>
          {v}
        </Button>
      ),
    },
    { title: h.region, dataIndex: 'regionName' },
    { title: h.driver, dataIndex: 'driver', render: (v: string) => h.drivers[v] ?? v },
    {
      title: h.status,
      dataIndex: 'status',
      render: (v: string) => <Tag color={STATUS_COLORS[v]}>{h.statuses[v] ?? v}</Tag>,
    },
    { title: h.gpus, key: 'gpus', render: (_: unknown, r) => `${r.gpuIdle} / ${r.gpuTotal}` },
    {
      title: h.ports,
      key: 'ports',
      // A provider's host (vast.ai) hands out no ports of ours: its provider maps them.
      render: (_: unknown, r) =>
        r.portTotal > 0 ? (
          `${formatCount(r.portAllocated)} / ${formatCount(r.portTotal)}`
        ) : (
          <span className={styles.muted}>{h.providerPorts}</span>
        ),
    },
    {
      title: h.probe,
      dataIndex: 'lastProbeOk',
      render: (v: boolean | null) =>
        v === null ? (
          <span className={styles.muted}>{h.neverProbed}</span>
        ) : v ? (
          <Tag color="green">{h.reachable}</Tag>
        ) : (
          <Tag color="red">{h.unreachable}</Tag>
        ),
    },
  ];
  // 监控 is reading; every other row action changes the host (hosts:write).
  columns.push({
    title: c.actions,
    key: 'actions',
    render: (_: unknown, row) => (
      <span className={styles.nowrap}>
        <Button type="link" size="small" onClick={() => setMonitoring(row)} data-testid="host-monitor">
          {h.monitor}
        </Button>
        {canWrite ? (
          <>
            <Button type="link" size="small" onClick={() => setForm({ open: true, host: row })}>
              {c.edit}
            </Button>
            <Button
              type="link"
              size="small"
              onClick={() => test(row.id)}
              loading={probe.isPending && probe.variables === row.id}
            >
              {h.test}
            </Button>
            <ConfirmButton
              title={h.confirmInitPorts}
              okText={h.initPorts}
              cancelText={c.cancel}
              onConfirm={() => initPorts.mutate(row.id)}
              link
              danger={false}
            >
              {h.initPorts}
            </ConfirmButton>
            <ToggleAction
              enabled={row.status === 'ACTIVE'}
              onChange={(on) => setStatus.mutate({ id: row.id, status: on ? 'ACTIVE' : 'DISABLED' })}
            />
            <DeleteAction confirm={h.confirmDelete} onDelete={() => remove.mutate(row.id)} />
          </>
        ) : null}
      </span>
    ),
  });

  return (
    <>
      <StatGrid minWidth={120}>
        {(
          [
            ['hosts', h.stats.hosts, s?.totalHosts],
            ['reachable', h.stats.reachable, s?.reachableHosts],
            ['gpus', h.stats.gpus, s?.totalGpus],
            ['idle', h.stats.idle, s?.idleGpus],
            ['occupied', h.stats.occupied, s?.allocatedGpus],
            ['reserved', h.stats.reserved, s?.reservedGpus],
            ['utilization', h.stats.utilization, s ? `${Math.round(s.gpuUtilization * 100)}%` : undefined],
            [
              'ports',
              h.stats.ports,
              s ? `${formatCount(s.allocatedPorts)} / ${formatCount(s.totalPorts)}` : undefined,
            ],
          ] as const
        ).map(([key, title, value]) => (
          <div key={key} data-testid={`host-stat-${key}`}>
            <StatCard
              label={title}
              value={typeof value === 'number' ? formatCount(value) : (value ?? '-')}
              loading={stats.isLoading}
            />
          </div>
        ))}
      </StatGrid>
      <p className={styles.statsHelp} data-testid="host-gpu-states-help">
        {h.stats.help} <ComputedAt at={s?.computedAt} testId="host-stats-computed-at" />
      </p>
      <div className={styles.toolbar}>
        <Input.Search
          allowClear
          placeholder={h.keyword}
          onSearch={(v) => filter({ keyword: v || undefined })}
          style={{ width: 200 }}
        />
        <Select
          allowClear
          placeholder={h.allRegions}
          style={{ width: 150 }}
          onChange={(v) => filter({ regionId: v })}
          options={(regions.data ?? []).map((r) => ({ value: r.id, label: r.name }))}
        />
        <Select
          allowClear
          placeholder={h.allStatuses}
          style={{ width: 120 }}
          onChange={(v) => filter({ status: v })}
          options={Object.entries(h.statuses).map(([value, label]) => ({ value, label }))}
        />
        <span className={styles.grow} />
        {canWrite ? (
          <Button
            type="primary"
            onClick={() => setForm({ open: true, host: null })}
            data-testid="host-create"
          >
            {h.createTitle}
          </Button>
        ) : null}
      </div>
      <PagedTable
        list={hosts}
        columns={columns}
        scroll={{ x: scrollX }}
        pagination={paging(filters, hosts.data?.total, setFilters, { showTotal: c.total })}
      />
      <HostFormModal open={form.open} host={form.host} onClose={() => setForm({ open: false, host: null })} />
      <HostDetailDrawer id={detail} onClose={() => setDetail(null)} />
      <Suspense fallback={null}>
        {monitoring ? (
          <HostMetricsDrawer
            host={monitoring}
            title={h.monitorTitle(monitoring.name)}
            onClose={() => setMonitoring(null)}
          />
        ) : null}
      </Suspense>
    </>
  );
}
