import { REGION_CODE_RULE, type RegionView } from '@gpu/shared/catalogue';
import { NO_GPU_DEFAULT_HOURLY_PRICE } from '@gpu/shared/constants';
import { formatMoney } from '@gpu/shared/money';
import { Button, Form, Input, InputNumber, Switch, Table, type TableProps, Tag } from 'antd';
import { FormModal, useEditing } from '../../../components/admin/FormModal';
import { useAdminCan } from '../../../lib/admin-access';
import { ta } from '../../../locales/zh-CN.admin';
import { useRegions, useSaveRegion } from '../api/catalogue';
import { actionsColumn } from './actions-column';
import styles from './admin.module.css';
import { GpuTypesTable } from './GpuTypesTable';
import { useAdminLayout } from './responsive';
import { ToggleAction } from './ToggleAction';

const c = ta.adminCatalogue;
const r = c.regions;

/** Regions (GET/POST /admin/regions, PUT /admin/regions/{id}) and the GPU models they sell (停售/恢复销售 per region). */
export function RegionsTab() {
  const regions = useRegions();
  const save = useSaveRegion();
  const { scrollX } = useAdminLayout();
  const { editing, setEditing, close, id } = useEditing<RegionView>();
  const [form] = Form.useForm();

  const open = (row: RegionView | 'new') => {
    setEditing(row);
    form.setFieldsValue(
      row === 'new'
        ? {
            name: '',
            code: '',
            sortOrder: 0,
            overseas: false,
            enabled: true,
            noGpuHourlyPrice: NO_GPU_DEFAULT_HOURLY_PRICE,
          }
        : row,
    );
  };
  const submit = async () => {
    const body = await form.validateFields();
    await save.mutateAsync({ id, body });
    close();
  };
  const toggle = (row: RegionView, enabled: boolean) => save.mutate({ id: row.id, body: { enabled } });

  const canWrite = useAdminCan('catalogue:write');
  const columns: TableProps<RegionView>['columns'] = [
    { title: r.name, dataIndex: 'name' },
    { title: r.code, dataIndex: 'code' },
    { title: r.sortOrder, dataIndex: 'sortOrder' },
    { title: r.overseas, dataIndex: 'overseas', render: (v: boolean) => (v ? c.yes : c.no) },
    { title: r.hostCount, dataIndex: 'hostCount' },
    {
      title: r.noGpuPrice,
      dataIndex: 'noGpuHourlyPrice',
      render: (v: number) => `${formatMoney(v)}${r.perHour}`,
    },
    {
      title: r.status,
      dataIndex: 'enabled',
      render: (v: boolean) => <Tag color={v ? 'green' : 'default'}>{v ? c.enabled : c.disabled}</Tag>,
    },
    ...(canWrite
      ? [
          actionsColumn<RegionView>(open, (row) => (
            <ToggleAction
              enabled={row.enabled}
              confirm={r.confirmDisable}
              onChange={(enabled) => toggle(row, enabled)}
            />
          )),
        ]
      : []),
  ];

  return (
    <>
      <div className={styles.toolbar}>
        {canWrite ? (
          <Button type="primary" onClick={() => open('new')} data-testid="region-create">
            {r.createTitle}
          </Button>
        ) : null}
      </div>
      <Table
        rowKey="id"
        size="middle"
        columns={columns}
        dataSource={regions.data ?? []}
        loading={regions.isLoading}
        pagination={false}
        scroll={{ x: scrollX }}
      />
      <GpuTypesTable regions={regions.data ?? []} />
      <FormModal
        editing={editing}
        createTitle={r.createTitle}
        editTitle={r.editTitle}
        onClose={close}
        onOk={submit}
        okText={c.save}
        cancelText={c.cancel}
        saving={save.isPending}
      >
        <Form form={form} layout="vertical" preserve={false}>
          <Form.Item name="name" label={r.name} rules={[{ required: true, message: c.rules.fill(r.name) }]}>
            <Input maxLength={32} data-testid="region-name" />
          </Form.Item>
          <Form.Item
            name="code"
            label={r.code}
            extra={r.codeHelp}
            rules={[{ required: true, ...REGION_CODE_RULE }]}
          >
            <Input maxLength={32} data-testid="region-code" />
          </Form.Item>
          <Form.Item name="sortOrder" label={r.sortOrder}>
            <InputNumber min={-10000} max={10000} precision={0} data-testid="region-sort" />
          </Form.Item>
          <Form.Item name="noGpuHourlyPrice" label={r.noGpuPrice} extra={r.noGpuPriceHelp}>
            <InputNumber
              min={0.01}
              max={100}
              step={0.01}
              precision={2}
              suffix={r.noGpuPriceUnit}
              data-testid="region-nogpu-price"
            />
          </Form.Item>
          <Form.Item name="overseas" label={r.overseas} valuePropName="checked">
            <Switch />
          </Form.Item>
          <Form.Item name="enabled" label={c.enabled} valuePropName="checked">
            <Switch />
          </Form.Item>
        </Form>
      </FormModal>
    </>
  );
}
