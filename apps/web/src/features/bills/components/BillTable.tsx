import type { Bill } from '@gpu/shared/bills';
import type { BillKind } from '@gpu/shared/labels';
import { formatMoney } from '@gpu/shared/money';
import { formatTime } from '@gpu/shared/time';
import { Empty, Table, type TableProps, Tag } from 'antd';
import { Token } from '../../../components/Token';
import { t } from '../../../locales/zh-CN';
import styles from './BillTable.module.css';

const b = t.bills;
const c = b.columns;
const SHORT = 'YYYY-MM-DD HH:mm' as const;

export const KIND_COLORS: Record<BillKind, string> = {
  create: 'blue',
  metering: 'cyan',
  renewal: 'purple',
  refund: 'green',
  nogpu: 'gold',
};

export const KindTag = ({ kind }: { kind: BillKind }) => (
  <Tag color={KIND_COLORS[kind]} bordered={false} className={styles.tag}>
    {b.kind[kind]}
  </Tag>
);

/** A metering line's rate (no-GPU mode's is its own, issue 30): "¥0.10/时". */
export const Rate = ({ bill }: { bill: Bill }) =>
  bill.hourlyPrice === null ? null : (
    <span className={styles.sub} data-testid="bill-rate">
      {b.rate(formatMoney(bill.hourlyPrice))}
    </span>
  );

/** Metering lines (按量扣费, 无卡模式) are per hour and can be seconds long. */
const isMetering = (bill: Bill) => bill.kind === 'metering' || bill.kind === 'nogpu';

export const Amount = ({ bill }: { bill: Bill }) => (
  <span className={bill.amount < 0 ? styles.refund : styles.amount} data-testid="bill-amount">
    {formatMoney(bill.amount)}
  </span>
);

/** The order or bill number (OD…/BL…), whole on one line: support reads it back digit by digit. */
export const RecordNo = ({ no }: { no: string }) => (
  <span className={styles.id} data-testid="bill-no">
    {no}
  </span>
);

/** Packages run for days: minutes are enough; a metering period can be seconds long. */
export const Period = ({ bill }: { bill: Bill }) => {
  const pattern = isMetering(bill) ? ('YYYY-MM-DD HH:mm:ss' as const) : SHORT;
  return (
    <span className={styles.period}>
      {formatTime(bill.periodStart, pattern)}
      <span className={styles.tilde}> ~ </span>
      {formatTime(bill.periodEnd, pattern)}
    </span>
  );
};

export interface BillTableProps {
  bills: Bill[];
  loading: boolean;
  /** The orders view leaves out the voucher column. */
  variant?: 'bills' | 'orders';
  emptyText: string;
  pagination: TableProps<Bill>['pagination'];
}

/** Desktop: expense records or orders as a table. */
export function BillTable({ bills, loading, variant = 'bills', emptyText, pagination }: BillTableProps) {
  const columns: TableProps<Bill>['columns'] = [
    {
      key: 'no',
      title: variant === 'orders' ? c.orderId : c.id,
      dataIndex: 'recordNo',
      width: 250,
      render: (no: string) => <RecordNo no={no} />,
    },
    {
      key: 'instance',
      title: c.instance,
      width: 180,
      render: (_, bill) => (
        <span>
          <span className={styles.name}>
            <Token>{bill.instanceName}</Token>
          </span>
          <span className={styles.sub}>#{bill.instanceId}</span>
        </span>
      ),
    },
    {
      key: 'billingType',
      title: c.billingType,
      width: 100,
      render: (_, bill) => t.instances.billingType[bill.billingType],
    },
    {
      key: 'kind',
      title: c.kind,
      width: 100,
      render: (_, bill) => (
        <span className={styles.kindCell}>
          <KindTag kind={bill.kind} />
          <Rate bill={bill} />
        </span>
      ),
    },
    { key: 'period', title: c.period, width: 330, render: (_, bill) => <Period bill={bill} /> },
    {
      key: 'amount',
      title: c.amount,
      width: 120,
      align: 'right',
      render: (_, bill) => <Amount bill={bill} />,
    },
    ...(variant === 'bills'
      ? [
          {
            key: 'voucher',
            title: c.voucher,
            width: 110,
            align: 'right' as const,
            render: (_: unknown, bill: Bill) => (
              <span className={styles.voucher}>
                {bill.voucherAmount ? formatMoney(bill.voucherAmount) : '-'}
              </span>
            ),
          },
        ]
      : []),
    {
      key: 'time',
      title: c.time,
      width: 170,
      render: (_, bill) => <span className={styles.time}>{formatTime(bill.createdAt)}</span>,
    },
  ];
  return (
    <Table<Bill>
      rowKey="id"
      size="middle"
      columns={columns}
      dataSource={bills}
      loading={loading}
      pagination={pagination}
      scroll={{ x: 1000 }}
      locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={emptyText} /> }}
      onRow={(bill) => ({ 'data-testid': `bill-row-${bill.id}` }) as object}
    />
  );
}

/** Mobile: one compact item per record. */
export function BillList({ bills, emptyText }: { bills: Bill[]; emptyText: string }) {
  if (bills.length === 0) return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={emptyText} />;
  return (
    <ul className={styles.list}>
      {bills.map((bill) => (
        <li key={bill.id} className={styles.item} data-testid={`bill-row-${bill.id}`}>
          <div className={styles.itemHead}>
            <span className={styles.itemName}>
              <Token>{bill.instanceName}</Token>
              <KindTag kind={bill.kind} />
            </span>
            <Amount bill={bill} />
          </div>
          <div className={styles.sub}>
            {t.instances.billingType[bill.billingType]}
            {bill.hourlyPrice === null ? null : ` · ${b.rate(formatMoney(bill.hourlyPrice))}`} ·{' '}
            {formatTime(bill.createdAt)}
          </div>
          <div className={styles.sub}>
            <RecordNo no={bill.recordNo} />
          </div>
          <div className={styles.sub}>
            <Period bill={bill} />
          </div>
        </li>
      ))}
    </ul>
  );
}
