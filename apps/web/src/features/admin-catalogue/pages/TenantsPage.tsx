import type { AdminTenant } from '@gpu/shared/tenant-admin';
import { Button, Table, type TableProps, Tag } from 'antd';
import { useState } from 'react';
import { PageHeader } from '../../../components/PageHeader';
import { useAdminCan } from '../../../lib/admin-access';
import { useSession } from '../../../lib/use-session';
import { ta } from '../../../locales/zh-CN.admin';
import { useTenants } from '../api/tenants';
import { useAdminLayout } from '../components/responsive';
import { TenantFormDrawer } from '../components/TenantFormDrawer';

const c = ta.adminCatalogue;
const m = c.tenants;

/** /admin/tenants: the tenants, each answering its domains with its own brand. */
export default function TenantsPage() {
  const tenants = useTenants();
  const { scrollX } = useAdminLayout();
  const [form, setForm] = useState<{ open: boolean; tenant: AdminTenant | null }>({
    open: false,
    tenant: null,
  });

  const canWrite = useAdminCan('tenants:write');
  // A tenant operator edits its own tenant; making tenants is the platform's.
  const tenantOperator = useSession().admin?.tenantId != null;
  const canCreate = canWrite && !tenantOperator;
  const columns: NonNullable<TableProps<AdminTenant>['columns']> = [
    {
      title: m.name,
      dataIndex: 'name',
      render: (v: string, row) => (
        <span>
          {v} {row.isDefault ? <Tag color="blue">{m.isDefault}</Tag> : null}
        </span>
      ),
    },
    { title: m.code, dataIndex: 'code' },
    { title: m.domains, dataIndex: 'domains', render: (d: string[]) => d.join('、') || '-' },
    {
      title: m.status,
      dataIndex: 'status',
      render: (v: string) => (
        <Tag color={v === 'ACTIVE' ? 'green' : 'default'}>{v === 'ACTIVE' ? c.enabled : c.disabled}</Tag>
      ),
    },
    { title: m.hosts, dataIndex: 'hostCount', render: (n: number) => (n === 0 ? m.allHosts : n) },
    { title: m.prices, dataIndex: 'priceCount' },
  ];
  if (canWrite)
    columns.push({
      title: c.actions,
      key: 'actions',
      render: (_: unknown, row) => (
        <Button type="link" size="small" onClick={() => setForm({ open: true, tenant: row })}>
          {c.edit}
        </Button>
      ),
    });

  return (
    <>
      <PageHeader
        title={m.title}
        subtitle={m.subtitle}
        extra={
          canCreate ? (
            <Button
              type="primary"
              onClick={() => setForm({ open: true, tenant: null })}
              data-testid="tenant-create"
            >
              {m.createTitle}
            </Button>
          ) : null
        }
      />
      <Table
        rowKey="id"
        columns={columns}
        dataSource={tenants.data ?? []}
        loading={tenants.isLoading}
        scroll={{ x: scrollX }}
        pagination={false}
      />
      <TenantFormDrawer
        open={form.open}
        tenant={form.tenant}
        onClose={() => setForm({ open: false, tenant: null })}
      />
    </>
  );
}
