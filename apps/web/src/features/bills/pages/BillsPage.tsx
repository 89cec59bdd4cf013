import { BILL_KINDS } from '@gpu/shared/labels';
import { formatMoney } from '@gpu/shared/money';
import { useState } from 'react';
import { PageHeader } from '../../../components/PageHeader';
import { StatCard, StatGrid } from '../../../components/StatCard';
import { t } from '../../../locales/zh-CN';
import { useBalanceEvents, useBillingMonitor } from '../../billing';
import { type BillFilters, useBills } from '../api/list-bills';
import { ExportButtons } from '../components/ExportButtons';
import { PAGE_SIZE, RecordsCard } from '../components/RecordsCard';
import styles from './bills-pages.module.css';

const b = t.bills;

/** /console/bills: every charge and refund, with filters, figures and export. */
export default function BillsPage() {
  const [filters, setFilters] = useState<BillFilters>({});
  const [page, setPage] = useState(1);
  const records = useBills(filters, page, PAGE_SIZE);
  const monitor = useBillingMonitor();
  useBalanceEvents();
  const m = monitor.data;

  return (
    <div className={styles.page}>
      <PageHeader title={b.title} subtitle={b.subtitle} extra={<ExportButtons filters={filters} />} />
      <StatGrid>
        <StatCard
          label={b.todaySpend}
          loading={!m}
          value={m ? formatMoney(m.todaySpend) : ''}
          testId="stat-today"
        />
        <StatCard
          label={b.monthSpend}
          loading={!m}
          value={m ? formatMoney(m.monthSpend) : ''}
          testId="stat-month"
        />
        <StatCard
          label={b.totalSpend}
          loading={!m}
          value={m ? formatMoney(m.totalSpend) : ''}
          testId="stat-total"
        />
        <StatCard
          label={b.records}
          loading={!records.data}
          value={records.data?.total ?? 0}
          testId="stat-records"
        />
      </StatGrid>
      <RecordsCard
        query={records}
        filters={filters}
        kinds={BILL_KINDS}
        onFilters={(next) => {
          setFilters(next);
          setPage(1);
        }}
        page={page}
        onPage={setPage}
        variant="bills"
        emptyText={b.empty}
        errorText={b.loadFailed}
      />
    </div>
  );
}
