import { formatMoney } from '@gpu/shared/money';
import { formatTime } from '@gpu/shared/time';
import { type VoucherConfigView, voucherConfigInputSchema } from '@gpu/shared/vouchers';
import {
  Button,
  Card,
  DatePicker,
  Form,
  Input,
  InputNumber,
  Select,
  Space,
  Switch,
  type TableProps,
} from 'antd';
import { ConfirmButton } from '../../../components/admin/ConfirmButton';
import { FormModal, useEditing } from '../../../components/admin/FormModal';
import { paging, useListQuery } from '../../../components/admin/list-query';
import { PagedTable } from '../../../components/admin/PagedTable';
import { PageHeader } from '../../../components/PageHeader';
import { useAdminCan } from '../../../lib/admin-access';
import { ta } from '../../../locales/zh-CN.admin';
import {
  type ConfigQuery,
  useDeleteConfig,
  useSaveConfig,
  useToggleConfig,
  useVoucherConfigs,
} from '../api/promotions';
import { ScopeSelects } from '../components/ScopeSelects';
import { type ConfigFormValues, configFormValues, configInput } from '../voucher-config-form';
import { failed, parseForm, saveChecked } from '../zod-form';
import styles from './AdminPage.module.css';

const a = ta.adminVoucher;

/** /admin/voucher-config: what vouchers are issued from (SPEC.md §7 Voucher configs). */
export default function VoucherConfigPage() {
  const { query: q, setQuery: setQ, filter } = useListQuery<ConfigQuery>({ page: 1, size: 10 });
  const list = useVoucherConfigs(q);
  const save = useSaveConfig();
  const toggle = useToggleConfig();
  const remove = useDeleteConfig();
  const { editing, setEditing, close, id } = useEditing<VoucherConfigView>();
  const [form] = Form.useForm<ConfigFormValues>();

  const open = (row: VoucherConfigView | 'new') => {
    setEditing(row);
    form.resetFields();
    if (row !== 'new') form.setFieldsValue(configFormValues(row));
  };

  const submit = async () => {
    const v = form.getFieldsValue(true) as ConfigFormValues;
    const parsed = parseForm(form, voucherConfigInputSchema, configInput(v));
    await saveChecked(parsed, (input) => save.mutateAsync({ id: id ?? null, input }), a.saved, close);
  };

  const canWrite = useAdminCan('pricing:write');
  const columns: NonNullable<TableProps<VoucherConfigView>['columns']> = [
    { title: a.columns.name, dataIndex: 'name' },
    { title: a.columns.face, dataIndex: 'faceAmount', render: (v: number) => formatMoney(v) },
    {
      title: a.columns.validity,
      render: (_, r) =>
        [
          r.validDays ? a.validDays(r.validDays) : null,
          r.validUntil ? a.validUntil(formatTime(r.validUntil, 'YYYY-MM-DD')) : null,
        ]
          .filter(Boolean)
          .join('，'),
    },
    {
      title: a.columns.scope,
      render: (_, r) => [r.gpuType, r.regionName].filter(Boolean).join(' · ') || a.anyScope,
    },
    {
      title: a.columns.minOrder,
      dataIndex: 'minOrderAmount',
      render: (v: number) => (v > 0 ? formatMoney(v) : a.anyScope),
    },
    { title: a.columns.perUser, dataIndex: 'perUserLimit' },
    { title: a.columns.issued, dataIndex: 'issuedCount' },
    {
      title: a.columns.enabled,
      render: (_, r) => (
        <Switch
          checked={r.enabled}
          disabled={!canWrite}
          loading={toggle.isPending && toggle.variables === r.id}
          onChange={() => toggle.mutate(r.id, { onError: failed })}
        />
      ),
    },
  ];
  if (canWrite)
    columns.push({
      title: a.columns.actions,
      render: (_, r) => (
        <Space>
          <Button size="small" onClick={() => open(r)} data-testid="config-edit">
            {a.edit}
          </Button>
          <ConfirmButton
            title={r.issuedCount > 0 ? a.archiveConfirm : a.deleteConfirm}
            onConfirm={() => remove.mutateAsync({ id: r.id, archive: r.issuedCount > 0 }).catch(failed)}
          >
            {r.issuedCount > 0 ? a.archive : a.delete}
          </ConfirmButton>
        </Space>
      ),
    });

  return (
    <>
      <PageHeader title={a.configTitle} subtitle={a.configSubtitle} />
      <Card className={styles.card}>
        <div className={styles.filters}>
          <Input.Search
            allowClear
            placeholder={a.keyword}
            className={styles.filter}
            onSearch={(keyword) => filter({ keyword: keyword || undefined })}
          />
          <Select
            allowClear
            placeholder={a.enabledFilter}
            className={styles.filter}
            options={[
              { value: 'true', label: a.enabled },
              { value: 'false', label: a.disabled },
            ]}
            onChange={(enabled) => filter({ enabled })}
          />
          {canWrite ? (
            <Button type="primary" onClick={() => open('new')} data-testid="config-create">
              {a.newConfig}
            </Button>
          ) : null}
        </div>
        <PagedTable
          list={list}
          scroll={{ x: 1000 }}
          columns={columns}
          pagination={paging(q, list.data?.total, setQ)}
          data-testid="config-table"
        />
        <FormModal
          editing={editing}
          createTitle={a.newConfig}
          editTitle={a.editConfig}
          onClose={close}
          onOk={() => void submit()}
          saving={save.isPending}
          okText={a.save}
          cancelText={a.cancel}
          okTestId="config-save"
        >
          <Form
            form={form}
            layout="vertical"
            initialValues={{ enabled: true, perUserLimit: 1, minOrderAmount: 0, validDays: 30 }}
          >
            <Form.Item name="name" label={a.fields.name} required>
              <Input maxLength={64} data-testid="config-name" />
            </Form.Item>
            <Form.Item name="description" label={a.fields.description}>
              <Input maxLength={200} />
            </Form.Item>
            <Form.Item name="faceAmount" label={a.fields.faceAmount} required>
              <InputNumber
                min={0.01}
                max={1_000_000}
                precision={2}
                style={{ width: '100%' }}
                data-testid="config-face"
              />
            </Form.Item>
            <Space.Compact block>
              <Form.Item name="validDays" label={a.fields.validDays} style={{ flex: 1 }}>
                <InputNumber min={1} max={3650} precision={0} style={{ width: '100%' }} />
              </Form.Item>
              <Form.Item name="validUntil" label={a.fields.validUntil} style={{ flex: 1 }}>
                <DatePicker style={{ width: '100%' }} />
              </Form.Item>
            </Space.Compact>
            <ScopeSelects
              labels={{
                regionId: a.fields.regionId,
                gpuType: a.fields.gpuType,
                anyRegion: a.anyRegion,
                anyGpu: a.anyGpu,
              }}
            />
            <Form.Item name="minOrderAmount" label={a.fields.minOrderAmount}>
              <InputNumber min={0} max={1_000_000} precision={2} style={{ width: '100%' }} />
            </Form.Item>
            <Form.Item name="perUserLimit" label={a.fields.perUserLimit}>
              <InputNumber min={1} max={100} precision={0} style={{ width: '100%' }} />
            </Form.Item>
            <Form.Item name="enabled" label={a.fields.enabled} valuePropName="checked">
              <Switch />
            </Form.Item>
          </Form>
        </FormModal>
      </Card>
    </>
  );
}
