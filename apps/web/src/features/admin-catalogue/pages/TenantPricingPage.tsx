import { formatMoney } from '@gpu/shared/money';
import type { TenantPriceRow } from '@gpu/shared/tenant-admin';
import { Button, Form, InputNumber, Table, type TableProps } from 'antd';
import { useState } from 'react';
import { ConfirmButton } from '../../../components/admin/ConfirmButton';
import { FormModal } from '../../../components/admin/FormModal';
import { PageHeader } from '../../../components/PageHeader';
import { useAdminCan } from '../../../lib/admin-access';
import { ta } from '../../../locales/zh-CN.admin';
import { useDeleteTenantPrice, useSaveTenantPrice, useTenantPrices } from '../api/tenants';
import styles from '../components/admin.module.css';
import { useAdminLayout } from '../components/responsive';
import { useChosenTenant } from '../components/TenantPicker';

const c = ta.adminCatalogue;
const m = c.pricing;
const yuan = (v: number | null) =>
  v === null ? <span className={styles.muted}>{m.notSet}</span> : formatMoney(v);

/** /admin/tenant-host-pricing: a tenant's own price per GPU SKU (hourly and packages). */
export default function TenantPricingPage() {
  const { tenantId, picker } = useChosenTenant();
  const prices = useTenantPrices(tenantId);
  const save = useSaveTenantPrice();
  const reset = useDeleteTenantPrice();
  const { scrollX } = useAdminLayout();
  const [editing, setEditing] = useState<TenantPriceRow | null>(null);
  const [form] = Form.useForm();

  const open = (row: TenantPriceRow) => {
    setEditing(row);
    form.setFieldsValue({ ...row, hourlyPrice: row.hourlyPrice ?? row.basePrice });
  };
  const submit = async () => {
    if (!editing || !tenantId) return;
    const v = await form.validateFields();
    await save.mutateAsync({
      id: tenantId,
      skuId: editing.skuId,
      body: {
        hourlyPrice: v.hourlyPrice,
        dailyPrice: v.dailyPrice ?? null,
        weeklyPrice: v.weeklyPrice ?? null,
        monthlyPrice: v.monthlyPrice ?? null,
      },
    });
    setEditing(null);
  };

  const canWrite = useAdminCan('pricing:write');
  const columns: NonNullable<TableProps<TenantPriceRow>['columns']> = [
    { title: c.skus.host, dataIndex: 'hostName' },
    { title: c.skus.region, dataIndex: 'regionName' },
    { title: c.skus.model, dataIndex: 'gpuModel' },
    { title: m.basePrice, dataIndex: 'basePrice', render: (v: number) => formatMoney(v) },
    { title: m.hourly, dataIndex: 'hourlyPrice', render: yuan },
    { title: m.daily, dataIndex: 'dailyPrice', render: yuan },
    { title: m.weekly, dataIndex: 'weeklyPrice', render: yuan },
    { title: m.monthly, dataIndex: 'monthlyPrice', render: yuan },
  ];
  if (canWrite)
    columns.push({
      title: c.actions,
      key: 'actions',
      render: (_: unknown, row) => (
        <span className={styles.nowrap}>
          <Button type="link" size="small" onClick={() => open(row)} data-testid={`price-edit-${row.skuId}`}>
            {m.set}
          </Button>
          {row.hourlyPrice !== null ? (
            <ConfirmButton
              title={m.confirmReset}
              okText={m.resetAction}
              cancelText={c.cancel}
              onConfirm={() => tenantId && reset.mutate({ id: tenantId, skuId: row.skuId })}
              link
            >
              {m.resetAction}
            </ConfirmButton>
          ) : null}
        </span>
      ),
    });

  const money = (name: string, label: string, required = false) => (
    <Form.Item name={name} label={label} rules={required ? [{ required: true, message: c.rules.price }] : []}>
      <InputNumber
        min={0}
        max={1000000}
        step={0.01}
        style={{ width: '100%' }}
        data-testid={`price-${name}`}
      />
    </Form.Item>
  );

  return (
    <>
      <PageHeader title={m.title} subtitle={m.subtitle} />
      <div className={styles.toolbar}>{picker}</div>
      <Table
        rowKey="skuId"
        size="middle"
        columns={columns}
        dataSource={prices.data ?? []}
        loading={prices.isLoading}
        scroll={{ x: scrollX }}
        pagination={{ pageSize: 20, showTotal: c.total }}
      />
      <FormModal
        editing={editing}
        createTitle=""
        editTitle={editing ? m.editTitle(editing.hostName, editing.gpuModel) : ''}
        onClose={() => setEditing(null)}
        onOk={submit}
        okText={c.save}
        cancelText={c.cancel}
        saving={save.isPending}
      >
        <Form form={form} layout="vertical" preserve={false}>
          {money('hourlyPrice', m.hourly, true)}
          <p className={styles.muted}>{m.packageHelp}</p>
          {money('dailyPrice', m.daily)}
          {money('weeklyPrice', m.weekly)}
          {money('monthlyPrice', m.monthly)}
        </Form>
      </FormModal>
    </>
  );
}
