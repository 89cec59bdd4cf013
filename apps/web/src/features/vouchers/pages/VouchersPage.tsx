import { formatMoney } from '@gpu/shared/money';
import type { VoucherStatus } from '@gpu/shared/vouchers';
import { Alert, Button, Card, Empty, Pagination, Skeleton, Tabs } from 'antd';
import { useState } from 'react';
import { LinkButton } from '../../../components/LinkButton';
import { PageHeader } from '../../../components/PageHeader';
import { StatCard, StatGrid } from '../../../components/StatCard';
import { PATHS } from '../../../lib/routing/paths';
import { t } from '../../../locales/zh-CN';
import { useVoucherStats } from '../api/get-voucher-stats';
import { useVouchers } from '../api/get-vouchers';
import { VoucherCard } from '../components/VoucherCard';
import { useVoucherEventRefresh } from '../use-voucher-event-refresh';
import styles from './VouchersPage.module.css';

const v = t.vouchers;
const PAGE_SIZE = 12;
type Tab = 'all' | VoucherStatus;
const TABS: Tab[] = ['all', 'UNUSED', 'USED', 'EXPIRED'];

/** /console/vouchers: stats cards, status tabs and the user's voucher cards (SPEC.md §2, §4). */
export default function VouchersPage() {
  const [tab, setTab] = useState<Tab>('all');
  const [page, setPage] = useState(1);
  const filters = { page, size: PAGE_SIZE, ...(tab === 'all' ? {} : { status: tab }) };
  const list = useVouchers(filters);
  const stats = useVoucherStats();
  useVoucherEventRefresh();
  const now = Date.now();

  const cards = [
    { key: 'totalValue', title: v.stats.totalValue, value: formatMoney(stats.data?.totalValue ?? 0) },
    { key: 'unused', title: v.stats.unused, value: stats.data?.unused ?? 0 },
    { key: 'used', title: v.stats.used, value: stats.data?.used ?? 0 },
    { key: 'expired', title: v.stats.expired, value: stats.data?.expired ?? 0 },
  ];

  let body: React.ReactNode;
  if (list.isPending) body = <Skeleton active />;
  else if (list.isError)
    body = (
      <Alert
        type="error"
        showIcon
        message={v.loadFailed}
        data-testid="vouchers-load-failed"
        action={
          <Button size="small" onClick={() => void list.refetch()}>
            {v.retry}
          </Button>
        }
      />
    );
  else if (list.data.list.length === 0)
    body = (
      <Empty
        image={Empty.PRESENTED_IMAGE_SIMPLE}
        description={tab === 'all' ? v.empty : v.emptyFiltered}
        data-testid="vouchers-empty"
      >
        <LinkButton to={PATHS.market} type="primary">
          {v.goMarket}
        </LinkButton>
      </Empty>
    );
  else
    body = (
      <>
        <div className={styles.grid}>
          {list.data.list.map((voucher) => (
            <VoucherCard key={voucher.id} voucher={voucher} now={now} />
          ))}
        </div>
        <Pagination
          className={styles.pagination}
          current={page}
          pageSize={PAGE_SIZE}
          total={list.data.total}
          onChange={setPage}
          hideOnSinglePage
          showTotal={v.total}
        />
      </>
    );

  return (
    <>
      <PageHeader title={v.title} subtitle={v.subtitle} />
      <StatGrid testId="voucher-stats">
        {cards.map((c) => (
          <StatCard
            key={c.key}
            label={c.title}
            value={c.value}
            loading={stats.isPending}
            testId={`voucher-stat-${c.key}`}
          />
        ))}
      </StatGrid>
      <Card className={styles.card}>
        <Tabs
          activeKey={tab}
          onChange={(key) => {
            setTab(key as Tab);
            setPage(1);
          }}
          items={TABS.map((key) => ({ key, label: v.tabs[key] }))}
        />
        {body}
      </Card>
    </>
  );
}
