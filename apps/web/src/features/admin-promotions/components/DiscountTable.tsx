import { type DiscountAdminView, discountInputSchema } from '@gpu/shared/discounts';
import { discountZhe } from '@gpu/shared/price-display';
import { formatTime } from '@gpu/shared/time';
import {
  Button,
  DatePicker,
  Form,
  Input,
  InputNumber,
  Select,
  Space,
  Switch,
  type TableProps,
  Tag,
} from 'antd';
import type { Dayjs } from 'dayjs';
import { ConfirmButton } from '../../../components/admin/ConfirmButton';
import { FormModal, useEditing } from '../../../components/admin/FormModal';
import { paging, useListQuery } from '../../../components/admin/list-query';
import { PagedTable } from '../../../components/admin/PagedTable';
import { fromPicker, toPicker } from '../../../components/admin/platform-picker';
import { useAdminCan } from '../../../lib/admin-access';
import { ta } from '../../../locales/zh-CN.admin';
import {
  type DiscountQuery,
  useDeleteDiscount,
  useDiscountStatus,
  useDiscounts,
  useSaveDiscount,
} from '../api/promotions';
import styles from '../pages/AdminPage.module.css';
import { failed, parseForm, saveChecked } from '../zod-form';
import { ScopeSelects } from './ScopeSelects';

const d = ta.adminDiscount;

interface FormValues {
  name: string;
  description?: string;
  discountRate: number;
  tenantId?: number;
  regionId?: number;
  gpuType?: string;
  window: [Dayjs, Dayjs] | null;
  enabled: boolean;
}

/** The discount rules: filters, table, create/edit form, status switch and delete confirm. */
export function DiscountTable() {
  const { query: q, setQuery: setQ, filter } = useListQuery<DiscountQuery>({ page: 1, size: 10 });
  const list = useDiscounts(q);
  const save = useSaveDiscount();
  const status = useDiscountStatus();
  const remove = useDeleteDiscount();
  const { editing, setEditing, close, id } = useEditing<DiscountAdminView>();
  const [form] = Form.useForm<FormValues>();

  const open = (row: DiscountAdminView | 'new') => {
    setEditing(row);
    form.resetFields();
    if (row !== 'new')
      form.setFieldsValue({
        name: row.name,
        description: row.description,
        discountRate: row.discountRate,
        tenantId: row.tenantId ?? undefined,
        regionId: row.regionId ?? undefined,
        gpuType: row.gpuType ?? undefined,
        window: [toPicker(row.startTime), toPicker(row.endTime)],
        enabled: row.enabled,
      });
  };

  const submit = async () => {
    const v = form.getFieldsValue(true) as FormValues;
    const parsed = parseForm(form, discountInputSchema, {
      name: v.name ?? '',
      description: v.description ?? '',
      discountRate: v.discountRate,
      tenantId: v.tenantId ?? null,
      regionId: v.regionId ?? null,
      gpuType: v.gpuType ?? null,
      // The window is picked in platform time (Asia/Shanghai, like the table's column).
      startTime: v.window?.[0] ? fromPicker(v.window[0]) : '',
      endTime: v.window?.[1] ? fromPicker(v.window[1]) : '',
      enabled: v.enabled ?? true,
    });
    await saveChecked(parsed, (input) => save.mutateAsync({ id: id ?? null, input }), d.saved, close);
  };

  const canWrite = useAdminCan('pricing:write');
  const columns: NonNullable<TableProps<DiscountAdminView>['columns']> = [
    { title: d.columns.name, dataIndex: 'name' },
    { title: d.columns.rate, dataIndex: 'discountRate', render: (r: number) => discountZhe(r) },
    {
      title: d.columns.scope,
      render: (_, r) =>
        [r.tenantName ?? d.anyTenant, r.regionName ?? d.anyRegion, r.gpuType ?? d.anyGpu].join(' · '),
    },
    {
      title: d.columns.window,
      render: (_, r) =>
        `${formatTime(r.startTime, 'YYYY-MM-DD HH:mm')} ~ ${formatTime(r.endTime, 'YYYY-MM-DD HH:mm')}`,
    },
    {
      title: d.columns.state,
      dataIndex: 'state',
      render: (s: DiscountAdminView['state']) => <Tag color={d.stateColors[s]}>{d.states[s]}</Tag>,
    },
    {
      title: d.columns.enabled,
      render: (_, r) => (
        <Switch
          checked={r.enabled}
          disabled={!canWrite}
          loading={status.isPending && status.variables?.id === r.id}
          onChange={(enabled) => status.mutate({ id: r.id, enabled }, { onError: failed })}
        />
      ),
    },
  ];
  if (canWrite)
    columns.push({
      title: d.columns.actions,
      render: (_, r) => (
        <Space>
          <Button size="small" onClick={() => open(r)} data-testid="discount-edit">
            {d.editAction}
          </Button>
          <ConfirmButton title={d.deleteConfirm} onConfirm={() => remove.mutateAsync(r.id).catch(failed)}>
            {d.delete}
          </ConfirmButton>
        </Space>
      ),
    });

  return (
    <>
      <div className={styles.filters}>
        <Input.Search
          allowClear
          placeholder={d.keyword}
          className={styles.filter}
          onSearch={(keyword) => filter({ keyword: keyword || undefined })}
        />
        <Select
          allowClear
          placeholder={d.state}
          className={styles.filter}
          options={Object.entries(d.states).map(([value, label]) => ({ value, label }))}
          onChange={(state) => filter({ state })}
        />
        {canWrite ? (
          <Button type="primary" onClick={() => open('new')} data-testid="discount-create">
            {d.create}
          </Button>
        ) : null}
      </div>
      <PagedTable
        list={list}
        scroll={{ x: 900 }}
        columns={columns}
        pagination={paging(q, list.data?.total, setQ)}
        data-testid="discount-table"
      />
      <FormModal
        editing={editing}
        createTitle={d.create}
        editTitle={d.edit}
        onClose={close}
        onOk={() => void submit()}
        saving={save.isPending}
        okTestId="discount-save"
        okText={ta.adminVoucher.save}
        cancelText={ta.adminVoucher.cancel}
      >
        <Form form={form} layout="vertical" initialValues={{ enabled: true, discountRate: 0.8 }}>
          <Form.Item name="name" label={d.fields.name} required>
            <Input maxLength={64} data-testid="discount-name" />
          </Form.Item>
          <Form.Item name="description" label={d.fields.description}>
            <Input maxLength={200} />
          </Form.Item>
          <Form.Item name="discountRate" label={d.fields.discountRate} required>
            <InputNumber
              min={0.01}
              max={0.99}
              step={0.05}
              style={{ width: '100%' }}
              data-testid="discount-rate"
            />
          </Form.Item>
          <ScopeSelects
            tenant
            labels={{
              tenantId: d.fields.tenantId,
              regionId: d.fields.regionId,
              gpuType: d.fields.gpuType,
              anyTenant: d.anyTenant,
              anyRegion: d.anyRegion,
              anyGpu: d.anyGpu,
            }}
          />
          <Form.Item name="window" label={d.fields.window} required>
            <DatePicker.RangePicker showTime style={{ width: '100%' }} />
          </Form.Item>
          <Form.Item name="enabled" label={d.fields.enabled} valuePropName="checked">
            <Switch />
          </Form.Item>
        </Form>
      </FormModal>
    </>
  );
}
