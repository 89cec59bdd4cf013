import type { AdminImage } from '@gpu/shared/catalogue';
import { FRAMEWORK_TYPES, PLATFORM_TYPES } from '@gpu/shared/images';
import { Button, Col, Form, Input, InputNumber, Row, Select, Switch, type TableProps, Tag } from 'antd';
import { Suspense, useState } from 'react';
import { FormModal, useEditing } from '../../../components/admin/FormModal';
import { paging, useListQuery } from '../../../components/admin/list-query';
import { PagedTable } from '../../../components/admin/PagedTable';
import { useAdminCan } from '../../../lib/admin-access';
import { ta } from '../../../locales/zh-CN.admin';
import { ImageQuotaCard } from '../../images';
import { type ImageFilters, useAdminImages, useSaveImage } from '../api/catalogue';
import { actionsColumn } from './actions-column';
import styles from './admin.module.css';
import { useAdminLayout } from './responsive';
import { ToggleAction } from './ToggleAction';

const c = ta.adminCatalogue;
const m = c.images;
const EMPTY = {
  imageName: '',
  imageUrl: '',
  frameworkType: 'pytorch',
  frameworkVersion: '',
  pythonVersion: '',
  cudaVersion: '',
  cannVersion: '',
  musaVersion: '',
  osInfo: 'Ubuntu 22.04',
  gpuBrand: 'NVIDIA',
  platformType: 'local',
  description: '',
  preset: false,
  enabled: true,
  sortOrder: 0,
};

/** The image catalogue users pick from when creating an instance. */
export function ImagesTab() {
  const { query: filters, setQuery: setFilters, filter } = useListQuery<ImageFilters>({ page: 1, size: 10 });
  const [keyword, setKeyword] = useState('');
  const images = useAdminImages(filters);
  const save = useSaveImage();
  const { scrollX } = useAdminLayout();
  const { editing, setEditing, close, id } = useEditing<AdminImage>();
  const [form] = Form.useForm();

  const open = (row: AdminImage | 'new') => {
    setEditing(row);
    form.setFieldsValue(row === 'new' ? EMPTY : row);
  };
  const submit = async () => {
    const { id: _id, createdAt: _c, updatedAt: _u, ...body } = await form.validateFields();
    await save.mutateAsync({ id, body });
    close();
  };

  const canWrite = useAdminCan('catalogue:write');
  const columns: TableProps<AdminImage>['columns'] = [
    { title: m.name, dataIndex: 'imageName' },
    { title: m.url, dataIndex: 'imageUrl', render: (v: string) => <code>{v}</code> },
    {
      title: m.framework,
      key: 'fw',
      render: (_: unknown, row) => `${row.frameworkType} ${row.frameworkVersion}`.trim(),
    },
    { title: m.python, dataIndex: 'pythonVersion' },
    {
      title: m.accel,
      key: 'accel',
      render: (_: unknown, row) =>
        [
          row.cudaVersion && `CUDA ${row.cudaVersion}`,
          row.cannVersion && `CANN ${row.cannVersion}`,
          row.musaVersion && `MUSA ${row.musaVersion}`,
        ]
          .filter(Boolean)
          .join(' / '),
    },
    { title: m.brand, dataIndex: 'gpuBrand' },
    {
      title: m.status,
      dataIndex: 'enabled',
      render: (v: boolean) => <Tag color={v ? 'green' : 'default'}>{v ? c.enabled : c.disabled}</Tag>,
    },
    ...(canWrite
      ? [
          actionsColumn<AdminImage>(open, (row) => (
            <ToggleAction
              enabled={row.enabled}
              confirm={m.confirmDisable}
              onChange={(enabled) => save.mutate({ id: row.id, body: { enabled } })}
            />
          )),
        ]
      : []),
  ];

  return (
    <>
      <Suspense fallback={null}>
        <ImageQuotaCard />
      </Suspense>
      <div className={styles.toolbar}>
        <Input.Search
          allowClear
          placeholder={m.keyword}
          value={keyword}
          onChange={(e) => setKeyword(e.target.value)}
          onSearch={(v) => filter({ keyword: v || undefined })}
          style={{ width: 220 }}
        />
        <Select
          allowClear
          placeholder={m.allFrameworks}
          style={{ width: 150 }}
          value={filters.frameworkType}
          onChange={(v) => filter({ frameworkType: v })}
          options={FRAMEWORK_TYPES.map((f) => ({ value: f, label: f }))}
        />
        <span className={styles.grow} />
        {canWrite ? (
          <Button type="primary" onClick={() => open('new')} data-testid="image-create">
            {m.createTitle}
          </Button>
        ) : null}
      </div>
      <PagedTable
        list={images}
        columns={columns}
        scroll={{ x: scrollX }}
        pagination={paging(filters, images.data?.total, setFilters, { showTotal: c.total })}
      />
      <FormModal
        editing={editing}
        createTitle={m.createTitle}
        editTitle={m.editTitle}
        onClose={close}
        onOk={submit}
        okText={c.save}
        cancelText={c.cancel}
        saving={save.isPending}
        width={720}
      >
        <Form form={form} layout="vertical" preserve={false}>
          <Row gutter={12}>
            <Col xs={24} md={12}>
              <Form.Item
                name="imageName"
                label={m.name}
                rules={[{ required: true, message: c.rules.fill(m.name) }]}
              >
                <Input maxLength={100} data-testid="image-name" />
              </Form.Item>
            </Col>
            <Col xs={24} md={12}>
              <Form.Item
                name="imageUrl"
                label={m.url}
                extra={m.urlHelp}
                rules={[{ required: true, message: c.rules.fill(m.url) }]}
              >
                <Input maxLength={300} data-testid="image-url" />
              </Form.Item>
            </Col>
            <Col xs={12} md={8}>
              <Form.Item name="frameworkType" label={m.framework}>
                <Select options={FRAMEWORK_TYPES.map((f) => ({ value: f, label: f }))} />
              </Form.Item>
            </Col>
            <Col xs={12} md={8}>
              <Form.Item name="frameworkVersion" label={m.frameworkVersion}>
                <Input maxLength={32} data-testid="image-framework-version" />
              </Form.Item>
            </Col>
            <Col xs={12} md={8}>
              <Form.Item name="pythonVersion" label={m.python}>
                <Input maxLength={32} data-testid="image-python" />
              </Form.Item>
            </Col>
            <Col xs={12} md={8}>
              <Form.Item name="cudaVersion" label={m.cuda}>
                <Input maxLength={32} data-testid="image-cuda" />
              </Form.Item>
            </Col>
            <Col xs={12} md={8}>
              <Form.Item name="cannVersion" label={m.cann}>
                <Input maxLength={32} />
              </Form.Item>
            </Col>
            <Col xs={12} md={8}>
              <Form.Item name="musaVersion" label={m.musa}>
                <Input maxLength={32} />
              </Form.Item>
            </Col>
            <Col xs={12} md={8}>
              <Form.Item name="gpuBrand" label={m.brand}>
                <Select
                  options={['NVIDIA', 'Huawei', 'Moore Threads', 'AMD'].map((b) => ({ value: b, label: b }))}
                />
              </Form.Item>
            </Col>
            <Col xs={12} md={8}>
              <Form.Item name="platformType" label={m.platform}>
                <Select options={PLATFORM_TYPES.map((p) => ({ value: p, label: p }))} />
              </Form.Item>
            </Col>
            <Col xs={12} md={8}>
              <Form.Item name="osInfo" label={m.os}>
                <Input maxLength={64} />
              </Form.Item>
            </Col>
            <Col xs={24}>
              <Form.Item name="description" label={m.description}>
                <Input.TextArea maxLength={500} rows={2} />
              </Form.Item>
            </Col>
            <Col xs={8}>
              <Form.Item name="preset" label={m.preset} valuePropName="checked">
                <Switch />
              </Form.Item>
            </Col>
            <Col xs={8}>
              <Form.Item name="enabled" label={c.enabled} valuePropName="checked">
                <Switch />
              </Form.Item>
            </Col>
            <Col xs={8}>
              <Form.Item name="sortOrder" label={m.sortOrder}>
                <InputNumber min={-10000} max={10000} precision={0} />
              </Form.Item>
            </Col>
          </Row>
        </Form>
      </FormModal>
    </>
  );
}
