import type { HostView } from '@gpu/shared/hosts';
import { Alert, Button, Table, type TableProps, Tag } from 'antd';
import { useEffect, useState } from 'react';
import { PageHeader } from '../../../components/PageHeader';
import { useAdminCan } from '../../../lib/admin-access';
import { ta } from '../../../locales/zh-CN.admin';
import { useHosts } from '../api/hosts';
import { useSaveTenantHosts, useTenantHosts } from '../api/tenants';
import styles from '../components/admin.module.css';
import { useAdminLayout } from '../components/responsive';
import { useChosenTenant } from '../components/TenantPicker';

const c = ta.adminCatalogue;
const m = c.tenantHosts;
const h = c.hosts;

/** /admin/tenant-hosts: which hosts a tenant's customers see. */
export default function TenantHostsPage() {
  const { tenantId, picker } = useChosenTenant();
  const hosts = useHosts({ page: 1, size: 200 });
  const granted = useTenantHosts(tenantId);
  const save = useSaveTenantHosts();
  const { scrollX } = useAdminLayout();
  const [selected, setSelected] = useState<number[]>([]);
  useEffect(() => setSelected(granted.data?.hostIds ?? []), [granted.data]);

  const columns: TableProps<HostView>['columns'] = [
    { title: h.name, dataIndex: 'name' },
    { title: h.region, dataIndex: 'regionName' },
    { title: h.status, dataIndex: 'status', render: (v: string) => <Tag>{h.statuses[v] ?? v}</Tag> },
    { title: h.gpus, key: 'gpus', render: (_: unknown, r) => `${r.gpuIdle} / ${r.gpuTotal}` },
    {
      title: c.skus.model,
      key: 'models',
      render: (_: unknown, r) => r.skus.map((s) => s.gpuModel).join('、') || '-',
    },
  ];

  const canWrite = useAdminCan('hosts:write');
  return (
    <>
      <PageHeader title={m.title} subtitle={m.subtitle} />
      <div className={styles.toolbar}>
        {picker}
        <span data-testid="tenant-hosts-summary">{m.selected(selected.length)}</span>
        <span className={styles.grow} />
        {canWrite ? (
          <>
            <Button onClick={() => setSelected([])}>{m.clear}</Button>
            <Button
              type="primary"
              disabled={!tenantId}
              loading={save.isPending}
              onClick={() => tenantId && save.mutate({ id: tenantId, hostIds: selected })}
              data-testid="tenant-hosts-save"
            >
              {m.save}
            </Button>
          </>
        ) : null}
      </div>
      {selected.length === 0 ? (
        <Alert type="info" showIcon message={m.selected(0)} style={{ marginBottom: 12 }} />
      ) : null}
      <Table
        rowKey="id"
        size="middle"
        columns={columns}
        dataSource={hosts.data?.list ?? []}
        loading={hosts.isLoading || granted.isLoading}
        pagination={false}
        scroll={{ x: scrollX }}
        rowSelection={{ selectedRowKeys: selected, onChange: (keys) => setSelected(keys as number[]) }}
      />
    </>
  );
}
