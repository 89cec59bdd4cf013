import { ReloadOutlined, WalletOutlined } from '@ant-design/icons';
import { RECHARGE_ORDER_STATUSES } from '@gpu/shared/labels';
import { formatMoney } from '@gpu/shared/money';
import type { RechargeOrder } from '@gpu/shared/payments';
import { formatTime } from '@gpu/shared/time';
import {
  Alert,
  Button,
  Card,
  DatePicker,
  Empty,
  Grid,
  Pagination,
  Select,
  Table,
  type TableProps,
  Tag,
} from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { type HTMLAttributes, useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router';
import { LinkButton } from '../../../components/LinkButton';
import { PageHeader } from '../../../components/PageHeader';
import { Token } from '../../../components/Token';
import { PATHS } from '../../../lib/routing/paths';
import { t } from '../../../locales/zh-CN';
import { type RechargeOrderFilters, useRechargeOrders } from '../api/get-recharge-orders';
import {
  changeOrderFilters,
  hasOrderFilters,
  ORDER_PAGE_SIZES,
  ORDER_STATUS_COLORS,
  orderFiltersFromSearch,
  orderFiltersToSearch,
} from '../order-filters';
import styles from './RechargeOrdersPage.module.css';

const o = t.recharge.orderList;
const DAY_FORMAT = 'YYYY-MM-DD';

const StatusTag = ({ status }: { status: RechargeOrder['status'] }) => (
  <Tag color={ORDER_STATUS_COLORS[status]} className={styles.tag} data-testid="recharge-order-status">
    {o.statuses[status]}
  </Tag>
);

const Amount = ({ value }: { value: number }) => <span className={styles.amount}>{formatMoney(value)}</span>;

const COLUMNS: TableProps<RechargeOrder>['columns'] = [
  {
    title: o.orderNo,
    dataIndex: 'orderNo',
    render: (v: string) => (
      <span className={styles.orderNo}>
        <Token mono>{v}</Token>
      </span>
    ),
  },
  { title: o.amount, dataIndex: 'amount', align: 'right', render: (v: number) => <Amount value={v} /> },
  {
    title: o.method,
    dataIndex: 'paymentType',
    render: (v: RechargeOrder['paymentType']) => o.methods[v] ?? v,
  },
  { title: o.status, dataIndex: 'status', render: (v: RechargeOrder['status']) => <StatusTag status={v} /> },
  { title: o.createdAt, dataIndex: 'createdAt', render: (v: string) => formatTime(v) },
  { title: o.paidAt, dataIndex: 'paidAt', render: (v: string | null) => formatTime(v) },
];

const STATUS_OPTIONS = [
  { value: '', label: o.allStatuses },
  ...RECHARGE_ORDER_STATUSES.map((s) => ({ value: s, label: o.statuses[s] })),
];

const toDay = (v: string | undefined) => (v ? dayjs(v, DAY_FORMAT) : null);

/** /console/recharge-orders: the user's recharge orders with status and date filters. */
export default function RechargeOrdersPage() {
  const [params, setParams] = useSearchParams();
  const filters = useMemo(() => orderFiltersFromSearch(params), [params]);
  const { data, isPending, isFetching, isError, refetch } = useRechargeOrders(filters);
  const mobile = Grid.useBreakpoint().md === false;

  const update = useCallback(
    (patch: Partial<RechargeOrderFilters>) =>
      setParams((current) =>
        orderFiltersToSearch(changeOrderFilters(orderFiltersFromSearch(current), patch)),
      ),
    [setParams],
  );

  const onRange = (range: [Dayjs | null, Dayjs | null] | null) =>
    update({ startDate: range?.[0]?.format(DAY_FORMAT), endDate: range?.[1]?.format(DAY_FORMAT) });

  const filtered = hasOrderFilters(filters);
  const empty = (
    <Empty
      image={Empty.PRESENTED_IMAGE_SIMPLE}
      description={filtered ? o.emptyFiltered : o.empty}
      data-testid="recharge-orders-empty"
    >
      {!filtered && (
        <LinkButton to={PATHS.recharge} type="primary">
          {o.recharge}
        </LinkButton>
      )}
    </Empty>
  );

  const list = data?.list ?? [];
  const pagination = {
    current: filters.page,
    pageSize: filters.size,
    total: data?.total ?? 0,
    showSizeChanger: !mobile,
    pageSizeOptions: ORDER_PAGE_SIZES.map(String),
    showTotal: mobile ? undefined : o.total,
    size: mobile ? ('small' as const) : undefined,
    onChange: (page: number, size: number) => update(size !== filters.size ? { size } : { page }),
    hideOnSinglePage: mobile,
  };

  return (
    <>
      <PageHeader
        title={o.title}
        subtitle={o.subtitle}
        extra={
          <LinkButton to={PATHS.recharge} type="primary" icon={<WalletOutlined />}>
            {o.recharge}
          </LinkButton>
        }
      />
      <Card className={styles.card}>
        <div className={styles.filters}>
          <Select
            aria-label={o.status}
            value={filters.status ?? ''}
            options={STATUS_OPTIONS}
            onChange={(value: string) =>
              update({ status: value ? (value as RechargeOrderFilters['status']) : undefined })
            }
            className={styles.status}
            data-testid="recharge-orders-status"
          />
          {mobile ? (
            <div className={styles.dates}>
              <DatePicker
                placeholder={o.startDate}
                value={toDay(filters.startDate)}
                onChange={(d) => update({ startDate: d ? d.format(DAY_FORMAT) : undefined })}
                inputReadOnly
              />
              <DatePicker
                placeholder={o.endDate}
                value={toDay(filters.endDate)}
                onChange={(d) => update({ endDate: d ? d.format(DAY_FORMAT) : undefined })}
                inputReadOnly
              />
            </div>
          ) : (
            <DatePicker.RangePicker
              aria-label={o.dateRange}
              placeholder={[o.startDate, o.endDate]}
              value={[toDay(filters.startDate), toDay(filters.endDate)]}
              onChange={(range) => onRange(range as [Dayjs | null, Dayjs | null] | null)}
              allowEmpty={[true, true]}
              data-testid="recharge-orders-range"
            />
          )}
          <div className={styles.filterActions}>
            <Button onClick={() => setParams(new URLSearchParams())} disabled={!filtered}>
              {o.reset}
            </Button>
            <Button
              icon={<ReloadOutlined />}
              onClick={() => void refetch()}
              loading={isFetching && !isPending}
              aria-label={o.refresh}
            >
              {mobile ? null : o.refresh}
            </Button>
          </div>
        </div>

        {isError && !data ? (
          <Alert
            type="error"
            showIcon
            title={o.loadFailed}
            action={
              <Button size="small" onClick={() => void refetch()}>
                {t.common.reload}
              </Button>
            }
          />
        ) : mobile ? (
          <div className={styles.cards} data-testid="recharge-orders-list">
            {isPending ? (
              <Card loading size="small" />
            ) : list.length === 0 ? (
              empty
            ) : (
              list.map((order) => (
                <div key={order.id} className={styles.item} data-testid="recharge-order">
                  <div className={styles.itemHead}>
                    <Amount value={order.amount} />
                    <StatusTag status={order.status} />
                  </div>
                  <dl className={styles.itemRows}>
                    <dt>{o.orderNo}</dt>
                    <dd className={styles.orderNo}>
                      <Token mono>{order.orderNo}</Token>
                    </dd>
                    <dt>{o.method}</dt>
                    <dd>{o.methods[order.paymentType] ?? order.paymentType}</dd>
                    <dt>{o.createdAt}</dt>
                    <dd>{formatTime(order.createdAt)}</dd>
                    <dt>{o.paidAt}</dt>
                    <dd>{formatTime(order.paidAt)}</dd>
                  </dl>
                </div>
              ))
            )}
            {list.length > 0 && <Pagination {...pagination} className={styles.pager} />}
          </div>
        ) : (
          <Table<RechargeOrder>
            className={styles.table}
            rowKey="id"
            columns={COLUMNS}
            dataSource={list}
            loading={isFetching}
            pagination={pagination}
            locale={{ emptyText: isPending ? <div className={styles.placeholder} /> : empty }}
            scroll={{ x: 860 }}
            onRow={() => ({ 'data-testid': 'recharge-order' }) as HTMLAttributes<HTMLElement>}
          />
        )}
      </Card>
    </>
  );
}
