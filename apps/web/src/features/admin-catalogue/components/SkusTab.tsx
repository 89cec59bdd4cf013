import type { GpuSkuView } from '@gpu/shared/catalogue';
import { formatMoney } from '@gpu/shared/money';
import {
  Alert,
  Button,
  Col,
  Form,
  Input,
  InputNumber,
  Row,
  Select,
  Switch,
  Table,
  type TableProps,
} from 'antd';
import { FormModal, useEditing } from '../../../components/admin/FormModal';
import { useAdminCan } from '../../../lib/admin-access';
import { ta } from '../../../locales/zh-CN.admin';
import { useDeleteSku, useSaveSku, useSkus, useSyncSkus } from '../api/catalogue';
import { useHosts } from '../api/hosts';
import { actionsColumn } from './actions-column';
import styles from './admin.module.css';
import { useAdminLayout } from './responsive';
import { DeleteAction } from './ToggleAction';

const c = ta.adminCatalogue;
const s = c.skus;

/** GPU SKUs (SPEC.md §7 GPU SKU): what each host sells and at what platform price. */
export function SkusTab() {
  const skus = useSkus();
  const hosts = useHosts({ page: 1, size: 200 });
  const save = useSaveSku();
  const remove = useDeleteSku();
  const sync = useSyncSkus();
  const { scrollX } = useAdminLayout();
  const { editing, setEditing, close } = useEditing<GpuSkuView>();
  const [form] = Form.useForm();

  const open = (row: GpuSkuView | 'new') => {
    setEditing(row);
    form.setFieldsValue(
      row === 'new'
        ? {
            gpuBrand: 'NVIDIA',
            cpuPerGpu: 8,
            memoryPerGpuGb: 32,
            systemDiskGb: 30,
            dataDiskGb: 50,
            listed: true,
          }
        : row,
    );
  };
  const submit = async () => {
    const v = await form.validateFields();
    if (editing === 'new') await save.mutateAsync({ body: v });
    else if (editing) {
      const { hostId: _h, ...body } = v;
      await save.mutateAsync({ id: editing.id, body });
    }
    close();
  };

  const canWrite = useAdminCan('catalogue:write');
  const columns: TableProps<GpuSkuView>['columns'] = [
    { title: s.host, dataIndex: 'hostName' },
    { title: s.region, dataIndex: 'regionName' },
    { title: s.model, dataIndex: 'gpuModel' },
    { title: s.memory, dataIndex: 'memoryGb' },
    { title: s.price, dataIndex: 'hourlyPrice', render: (v: number) => formatMoney(v) },
    { title: s.gpus, key: 'gpus', render: (_: unknown, r) => `${r.gpuIdle} / ${r.gpuTotal}` },
    {
      title: s.listed,
      dataIndex: 'listed',
      render: (v: boolean, row) => (
        <Switch
          size="small"
          checked={v}
          disabled={!canWrite}
          onChange={(listed) => save.mutate({ id: row.id, body: { listed } })}
        />
      ),
    },
    ...(canWrite
      ? [
          actionsColumn<GpuSkuView>(open, (row) => (
            <DeleteAction confirm={s.confirmDelete} onDelete={() => remove.mutate(row.id)} />
          )),
        ]
      : []),
  ];

  return (
    <>
      <Alert type="info" showIcon message={s.syncHelp} style={{ marginBottom: 12 }} />
      <div className={styles.toolbar}>
        {canWrite ? (
          <>
            <Button onClick={() => sync.mutate(undefined)} loading={sync.isPending} data-testid="sku-sync">
              {s.sync}
            </Button>
            <span className={styles.grow} />
            <Button type="primary" onClick={() => open('new')} data-testid="sku-create">
              {s.createTitle}
            </Button>
          </>
        ) : null}
      </div>
      <Table
        rowKey="id"
        size="middle"
        columns={columns}
        dataSource={skus.data ?? []}
        loading={skus.isLoading}
        scroll={{ x: scrollX }}
        pagination={{ pageSize: 20, showTotal: c.total }}
        rowClassName={(r) => (r.listed ? '' : (styles.muted ?? ''))}
      />
      <FormModal
        editing={editing}
        createTitle={s.createTitle}
        editTitle={s.editTitle}
        onClose={close}
        onOk={submit}
        okText={c.save}
        cancelText={c.cancel}
        saving={save.isPending}
        width={640}
      >
        <Form form={form} layout="vertical" preserve={false}>
          <Row gutter={12}>
            <Col xs={24} md={12}>
              <Form.Item name="hostId" label={s.host} rules={[{ required: true, message: c.rules.host }]}>
                <Select
                  disabled={editing !== 'new'}
                  showSearch
                  optionFilterProp="label"
                  options={(hosts.data?.list ?? []).map((h) => ({ value: h.id, label: h.name }))}
                />
              </Form.Item>
            </Col>
            <Col xs={24} md={12}>
              <Form.Item
                name="gpuModel"
                label={s.model}
                rules={[{ required: true, message: c.rules.gpuModel }]}
              >
                <Input maxLength={64} />
              </Form.Item>
            </Col>
            <Col xs={12} md={8}>
              <Form.Item name="gpuBrand" label={s.brand}>
                <Input maxLength={32} />
              </Form.Item>
            </Col>
            <Col xs={12} md={8}>
              <Form.Item
                name="memoryGb"
                label={s.memory}
                rules={[{ required: true, message: c.rules.memory }]}
              >
                <InputNumber min={1} max={1024} precision={0} style={{ width: '100%' }} />
              </Form.Item>
            </Col>
            <Col xs={12} md={8}>
              <Form.Item
                name="hourlyPrice"
                label={s.price}
                rules={[{ required: true, message: c.rules.price }]}
              >
                <InputNumber
                  min={0}
                  max={1000000}
                  step={0.01}
                  style={{ width: '100%' }}
                  data-testid="sku-price"
                />
              </Form.Item>
            </Col>
            <Col xs={12} md={6}>
              <Form.Item name="cpuPerGpu" label={s.cpuPerGpu}>
                <InputNumber min={0} max={512} precision={0} style={{ width: '100%' }} />
              </Form.Item>
            </Col>
            <Col xs={12} md={6}>
              <Form.Item name="memoryPerGpuGb" label={s.memoryPerGpu}>
                <InputNumber min={0} max={4096} precision={0} style={{ width: '100%' }} />
              </Form.Item>
            </Col>
            <Col xs={12} md={6}>
              <Form.Item name="systemDiskGb" label={s.systemDisk}>
                <InputNumber min={1} max={10000} precision={0} style={{ width: '100%' }} />
              </Form.Item>
            </Col>
            <Col xs={12} md={6}>
              <Form.Item name="dataDiskGb" label={s.dataDisk}>
                <InputNumber min={0} max={100000} precision={0} style={{ width: '100%' }} />
              </Form.Item>
            </Col>
            <Col xs={24}>
              <Form.Item name="listed" label={s.listed} valuePropName="checked">
                <Switch />
              </Form.Item>
            </Col>
          </Row>
        </Form>
      </FormModal>
    </>
  );
}
