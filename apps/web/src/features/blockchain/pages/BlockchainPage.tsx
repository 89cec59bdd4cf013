import { LinkOutlined, ReloadOutlined } from '@ant-design/icons';
import {
  BLOCKCHAIN_STATUS_LABELS,
  type BlockchainOrder,
  type BlockchainOrderCreate,
  blockchainOrderCreateSchema,
  CHAIN_CURRENCIES,
  CHAIN_LABELS,
  CHAINS,
} from '@gpu/shared/blockchain';
import { USD_CNY_TENTHS } from '@gpu/shared/constants';
import { formatMoney } from '@gpu/shared/money';
import { formatTime } from '@gpu/shared/time';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  Alert,
  Button,
  Card,
  Empty,
  Form,
  Grid,
  Input,
  Pagination,
  Select,
  Table,
  type TableProps,
  Tag,
} from 'antd';
import { useState } from 'react';
import { PageHeader } from '../../../components/PageHeader';
import { failureMessage } from '../../../lib/failure-message';
import { notify } from '../../../lib/feedback';
import { schemaRule } from '../../../lib/form-rules';
import { USER_QUERY_KEY } from '../../../lib/session';
import { t } from '../../../locales/zh-CN';
import {
  createBlockchainOrder,
  getBlockchainOrderStatus,
  useBlockchainOrders,
  useBlockchainStats,
} from '../api/blockchain';
import { ReceivePanel } from '../components/ReceivePanel';
import styles from './BlockchainPage.module.css';

const b = t.blockchain;
const PAGE_SIZE = 10;
const STATUS_COLORS = { PENDING: 'processing', CONFIRMED: 'success', FAILED: 'error' } as const;

function StatsRow() {
  const { data } = useBlockchainStats();
  const items = [
    { label: b.stats.total, value: String(data?.total ?? 0) },
    { label: b.stats.pending, value: String(data?.pending ?? 0) },
    { label: b.stats.confirmed, value: String(data?.confirmed ?? 0) },
    { label: b.stats.credited, value: formatMoney(data?.creditedAmount ?? 0) },
  ];
  return (
    <div className={styles.stats} data-testid="blockchain-stats">
      {items.map((i) => (
        <div key={i.label} className={styles.stat}>
          <span>{i.label}</span>
          <strong>{i.value}</strong>
        </div>
      ))}
    </div>
  );
}

function OrderForm() {
  const [form] = Form.useForm<BlockchainOrderCreate>();
  const chain = Form.useWatch('chain', form) ?? 'TRON';
  const queryClient = useQueryClient();
  const mutation = useMutation({
    mutationFn: createBlockchainOrder,
    onSuccess: () => {
      void notify('success', b.submitted);
      form.resetFields(['amount', 'txHash']);
      void queryClient.invalidateQueries({ queryKey: USER_QUERY_KEY });
    },
    onError: (err) =>
      void notify('error', failureMessage(err, { failed: b.submitFailed, retry: b.submitFailed })),
  });
  const rule = (name: string) => [schemaRule(blockchainOrderCreateSchema, name)];
  return (
    <Card title={b.formTitle} className={styles.card}>
      <Form<BlockchainOrderCreate>
        form={form}
        layout="vertical"
        initialValues={{ chain: 'TRON', currency: 'USDT' }}
        onFinish={(v) => mutation.mutate(blockchainOrderCreateSchema.parse(v))}
        data-testid="blockchain-form"
      >
        <div className={styles.formRow}>
          <Form.Item name="chain" label={b.chain} rules={rule('chain')}>
            <Select options={CHAINS.map((c) => ({ value: c, label: CHAIN_LABELS[c] }))} />
          </Form.Item>
          <Form.Item name="currency" label={b.currency} rules={rule('currency')}>
            <Select options={CHAIN_CURRENCIES.map((c) => ({ value: c, label: c }))} />
          </Form.Item>
          <Form.Item name="amount" label={b.amount} rules={rule('amount')}>
            <Input placeholder={b.amountPlaceholder} inputMode="decimal" data-testid="blockchain-amount" />
          </Form.Item>
        </div>
        <ReceivePanel chain={chain} />
        <Form.Item name="txHash" label={b.txHash} rules={rule('txHash')}>
          <Input placeholder={b.txHashPlaceholder} data-testid="blockchain-tx" />
        </Form.Item>
        <div className={styles.formFoot}>
          <span className={styles.rate}>{b.rate(formatMoney(USD_CNY_TENTHS / 10))}</span>
          <Button
            type="primary"
            htmlType="submit"
            loading={mutation.isPending}
            data-testid="blockchain-submit"
          >
            {b.submit}
          </Button>
        </div>
      </Form>
    </Card>
  );
}

function StatusActions({ order }: { order: BlockchainOrder }) {
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState(false);
  if (order.status !== 'PENDING') return null;
  const refresh = async () => {
    setBusy(true);
    try {
      await getBlockchainOrderStatus(order.id);
      await queryClient.invalidateQueries({ queryKey: USER_QUERY_KEY });
    } catch {
      void notify('error', b.statusFailed);
    } finally {
      setBusy(false);
    }
  };
  return (
    <span className={styles.actions}>
      <Button size="small" icon={<ReloadOutlined />} loading={busy} onClick={refresh}>
        {b.refresh}
      </Button>
      {order.simulatedConfirmUrl ? (
        <Button size="small" icon={<LinkOutlined />} href={order.simulatedConfirmUrl} target="_blank">
          {b.simulate}
        </Button>
      ) : null}
    </span>
  );
}

const COLUMNS: TableProps<BlockchainOrder>['columns'] = [
  {
    title: b.orderNo,
    dataIndex: 'orderNo',
    width: 270,
    render: (v: string) => <span className={styles.mono}>{v}</span>,
  },
  { title: b.chain, dataIndex: 'chain', width: 120 },
  {
    title: b.amount,
    width: 130,
    align: 'right',
    render: (_: unknown, o: BlockchainOrder) => `${o.amount} ${o.currency}`,
  },
  {
    title: b.credit,
    dataIndex: 'creditAmount',
    width: 120,
    align: 'right',
    render: (v: number) => formatMoney(v),
  },
  {
    title: b.txHash,
    dataIndex: 'txHash',
    ellipsis: true,
    render: (v: string) => (
      <span className={styles.mono} title={v}>
        {v}
      </span>
    ),
  },
  {
    title: b.status,
    dataIndex: 'status',
    width: 100,
    render: (_: BlockchainOrder['status'], o: BlockchainOrder) => <StatusTag order={o} />,
  },
  { title: b.createdAt, dataIndex: 'createdAt', width: 170, render: (v: string) => formatTime(v) },
  { title: b.actions, width: 200, render: (_: unknown, o: BlockchainOrder) => <StatusActions order={o} /> },
];

const StatusTag = ({ order }: { order: BlockchainOrder }) => (
  <Tag
    color={STATUS_COLORS[order.status]}
    title={order.failReason ?? undefined}
    data-testid="blockchain-status"
  >
    {BLOCKCHAIN_STATUS_LABELS[order.status]}
  </Tag>
);

/** Phones: one compact card per order instead of a table that scrolls sideways. */
function OrderCards({ orders }: { orders: BlockchainOrder[] }) {
  if (orders.length === 0) return <Empty description={b.empty} />;
  return (
    <ul className={styles.cards} data-testid="blockchain-orders">
      {orders.map((o) => (
        <li key={o.id} className={styles.orderCard}>
          <div className={styles.cardHead}>
            <span className={styles.mono}>{o.orderNo}</span>
            <StatusTag order={o} />
          </div>
          <div className={styles.cardAmounts}>
            <span>
              {o.amount} {o.currency} · {o.chain}
            </span>
            <strong>{formatMoney(o.creditAmount)}</strong>
          </div>
          <div className={styles.cardHash} title={o.txHash}>
            {o.txHash}
          </div>
          <div className={styles.cardFoot}>
            <span>{formatTime(o.createdAt)}</span>
            <StatusActions order={o} />
          </div>
        </li>
      ))}
    </ul>
  );
}

/** /blockchain: pay on chain, submit the transaction, follow its confirmation (SPEC.md §7). */
export default function BlockchainPage() {
  const [page, setPage] = useState(1);
  const { data, isPending, isError } = useBlockchainOrders(page, PAGE_SIZE);
  const mobile = Grid.useBreakpoint().md === false;
  return (
    <div className={styles.page}>
      <PageHeader title={b.title} subtitle={b.subtitle} />
      <StatsRow />
      <OrderForm />
      <Card title={b.listTitle} className={styles.card}>
        {isError ? <Alert type="error" showIcon title={b.loadFailed} className={styles.alert} /> : null}
        {mobile ? (
          <OrderCards orders={data?.list ?? []} />
        ) : (
          <Table<BlockchainOrder>
            rowKey="id"
            columns={COLUMNS}
            dataSource={data?.list ?? []}
            loading={isPending}
            pagination={false}
            scroll={{ x: 1200 }}
            locale={{ emptyText: b.empty }}
            data-testid="blockchain-orders"
          />
        )}
        {data && data.total > PAGE_SIZE ? (
          <Pagination
            className={styles.pager}
            current={page}
            pageSize={PAGE_SIZE}
            total={data.total}
            onChange={setPage}
            showTotal={b.total}
            showSizeChanger={false}
          />
        ) : null}
      </Card>
    </div>
  );
}
