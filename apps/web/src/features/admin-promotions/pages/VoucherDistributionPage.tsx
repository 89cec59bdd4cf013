import { formatMoney } from '@gpu/shared/money';
import { formatTime } from '@gpu/shared/time';
import {
  type DistributionPreview,
  type DistributionResult,
  type DistributionTarget,
  type DistributionView,
  distributionPreviewInputSchema,
} from '@gpu/shared/vouchers';
import {
  Alert,
  Button,
  Card,
  DatePicker,
  Drawer,
  Form,
  Input,
  InputNumber,
  Popconfirm,
  Radio,
  Select,
  Space,
  Table,
  type TableProps,
} from 'antd';
import type { Dayjs } from 'dayjs';
import { useState } from 'react';
import { PageHeader } from '../../../components/PageHeader';
import { useAdminCan } from '../../../lib/admin-access';
import { notify } from '../../../lib/feedback';
import { ta } from '../../../locales/zh-CN.admin';
import {
  previewDistribution,
  useDistributionDetail,
  useDistributionHistory,
  useExecuteDistribution,
  useScopes,
  useVoucherConfigs,
} from '../api/promotions';
import { DistributionResultModal } from '../components/DistributionResultModal';
import { failed, parseForm } from '../zod-form';
import styles from './AdminPage.module.css';

const a = ta.adminVoucher;
type TargetType = DistributionTarget['type'];

interface FormValues {
  configId?: number;
  type: TargetType;
  tenantId?: number;
  phones?: string;
  range?: [Dayjs, Dayjs] | null;
  minSpend?: number;
  remark?: string;
}

function targetOf(v: FormValues): unknown {
  if (v.type === 'tenant') return { type: 'tenant', tenantId: v.tenantId };
  if (v.type === 'phones')
    return {
      type: 'phones',
      phones: (v.phones ?? '')
        .split(/[\s,，;；]+/)
        .map((p) => p.trim())
        .filter(Boolean),
      tenantId: v.tenantId,
    };
  if (v.type === 'registered')
    return {
      type: 'registered',
      from: v.range?.[0]?.format('YYYY-MM-DD') ?? '',
      to: v.range?.[1]?.format('YYYY-MM-DD') ?? '',
    };
  return { type: 'spend', minSpend: v.minSpend ?? 0 };
}

const newRequestId = () => `dist-${crypto.randomUUID()}`;

/** /admin/voucher-distribution: target picker, preview count, confirm, history with detail drawer. */
export default function VoucherDistributionPage() {
  const [form] = Form.useForm<FormValues>();
  const type = Form.useWatch('type', form) ?? 'phones';
  const configs = useVoucherConfigs({ page: 1, size: 200, enabled: 'true' });
  const scopes = useScopes();
  const execute = useExecuteDistribution();
  const [preview, setPreview] = useState<DistributionPreview | null>(null);
  const [result, setResult] = useState<DistributionResult | null>(null);
  // One id per prepared distribution: a double click or a retry executes it once.
  const [requestId, setRequestId] = useState(newRequestId);
  const [page, setPage] = useState(1);
  const history = useDistributionHistory({ page, size: 10 });
  const [detailId, setDetailId] = useState<number | null>(null);
  const detail = useDistributionDetail(detailId);

  const checked = () => {
    const v = form.getFieldsValue(true) as FormValues;
    const parsed = parseForm(form, distributionPreviewInputSchema, {
      configId: v.configId,
      target: targetOf(v),
    });
    if ('error' in parsed) void notify('error', parsed.error);
    return 'error' in parsed ? null : { ...parsed.data, remark: v.remark ?? '' };
  };

  const onPreview = async () => {
    const input = checked();
    if (!input) return;
    try {
      setPreview(await previewDistribution(input));
      setRequestId(newRequestId());
    } catch (err) {
      failed(err);
    }
  };

  const onExecute = async () => {
    const input = checked();
    if (!input) return;
    try {
      const done = await execute.mutateAsync({ ...input, requestId });
      setResult(done);
      setPreview(null);
      setRequestId(newRequestId());
    } catch (err) {
      failed(err);
    }
  };

  const canWrite = useAdminCan('pricing:write');
  const columns: TableProps<DistributionView>['columns'] = [
    { title: a.historyColumns.id, dataIndex: 'id' },
    { title: a.historyColumns.config, dataIndex: 'configName' },
    {
      title: a.historyColumns.target,
      dataIndex: 'target',
      render: (target: DistributionTarget) => a.targets[target.type] ?? '-',
    },
    { title: a.historyColumns.targetCount, dataIndex: 'targetCount' },
    { title: a.historyColumns.issuedCount, dataIndex: 'issuedCount' },
    { title: a.historyColumns.remark, dataIndex: 'remark' },
    { title: a.historyColumns.createdAt, dataIndex: 'createdAt', render: (v: string) => formatTime(v) },
    {
      title: a.historyColumns.detail,
      render: (_, r) => (
        <Button size="small" onClick={() => setDetailId(r.id)} data-testid="distribution-detail">
          {a.view}
        </Button>
      ),
    },
  ];

  return (
    <>
      <PageHeader title={a.distTitle} subtitle={a.distSubtitle} />
      <Card className={styles.card}>
        <Form
          form={form}
          layout="vertical"
          initialValues={{ type: 'phones' }}
          onValuesChange={() => setPreview(null)}
          style={{ maxWidth: 640 }}
        >
          <Form.Item name="configId" label={a.config} required>
            <Select
              placeholder={a.chooseConfig}
              loading={configs.isPending}
              options={configs.data?.list.map((c) => ({
                value: c.id,
                label: `${c.name}（${formatMoney(c.faceAmount)}）`,
              }))}
              data-testid="dist-config"
            />
          </Form.Item>
          <Form.Item name="type" label={a.targetType}>
            <Radio.Group
              options={(Object.keys(a.targets) as TargetType[]).map((k) => ({
                value: k,
                label: a.targets[k],
              }))}
            />
          </Form.Item>
          {type === 'tenant' ? (
            <Form.Item name="tenantId" label={a.tenant} required>
              <Select options={scopes.data?.tenants.map((x) => ({ value: x.id, label: x.name }))} />
            </Form.Item>
          ) : null}
          {type === 'phones' ? (
            <>
              <Form.Item name="phones" label={a.phones} required>
                <Input.TextArea rows={4} data-testid="dist-phones" />
              </Form.Item>
              <Form.Item name="tenantId" label={a.phonesTenant}>
                <Select
                  allowClear
                  options={scopes.data?.tenants.map((x) => ({ value: x.id, label: x.name }))}
                  data-testid="dist-phones-tenant"
                />
              </Form.Item>
            </>
          ) : null}
          {type === 'registered' ? (
            <Form.Item name="range" label={a.registeredRange} required>
              <DatePicker.RangePicker style={{ width: '100%' }} />
            </Form.Item>
          ) : null}
          {type === 'spend' ? (
            <Form.Item name="minSpend" label={a.minSpend} required>
              <InputNumber min={0} precision={2} style={{ width: '100%' }} />
            </Form.Item>
          ) : null}
          <Form.Item name="remark" label={a.remark}>
            <Input maxLength={200} />
          </Form.Item>
          <Space wrap>
            <Button onClick={() => void onPreview()} data-testid="dist-preview">
              {a.preview}
            </Button>
            {canWrite ? (
              <Popconfirm
                title={a.executeConfirm(preview?.count ?? 0)}
                disabled={!preview || preview.count === 0}
                onConfirm={() => onExecute()}
              >
                <Button
                  type="primary"
                  disabled={!preview || preview.count === 0}
                  loading={execute.isPending}
                  data-testid="dist-execute"
                >
                  {a.execute}
                </Button>
              </Popconfirm>
            ) : null}
          </Space>
        </Form>
        {preview ? (
          <Alert
            className={styles.preview}
            type={preview.count > 0 ? 'info' : 'warning'}
            showIcon
            data-testid="dist-preview-result"
            message={a.previewResult(preview.count, preview.atLimit)}
            description={
              preview.sample.length > 0 || preview.skipped.length > 0 ? (
                <>
                  {preview.sample.length > 0 ? (
                    <div>{`${a.sample}：${preview.sample.map((u) => u.phone).join('、')}`}</div>
                  ) : null}
                  {preview.skipped.length > 0 ? (
                    <div>{a.skippedInPreview(preview.skipped.length)}</div>
                  ) : null}
                </>
              ) : undefined
            }
          />
        ) : null}
      </Card>
      <Card className={`${styles.card} ${styles.section}`} title={a.history}>
        <Table
          rowKey="id"
          size="middle"
          scroll={{ x: 900 }}
          loading={history.isFetching}
          dataSource={history.data?.list ?? []}
          columns={columns}
          pagination={{ current: page, pageSize: 10, total: history.data?.total ?? 0, onChange: setPage }}
        />
      </Card>
      <Drawer open={detailId !== null} onClose={() => setDetailId(null)} title={a.detailTitle} width={520}>
        <Table
          rowKey="userId"
          size="small"
          loading={detail.isPending}
          dataSource={detail.data?.items ?? []}
          pagination={false}
          columns={[
            { title: a.detailColumns.phone, dataIndex: 'phone' },
            { title: a.detailColumns.username, dataIndex: 'username' },
            { title: a.detailColumns.code, dataIndex: 'voucherCode' },
          ]}
        />
      </Drawer>
      <DistributionResultModal result={result} onClose={() => setResult(null)} />
    </>
  );
}
