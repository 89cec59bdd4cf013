import { ORDER_BILL_KINDS } from '@gpu/shared/labels';
import { useState } from 'react';
import { PageHeader } from '../../../components/PageHeader';
import { t } from '../../../locales/zh-CN';
import { useBalanceEvents } from '../../billing';
import { type BillFilters, useBillsOfKinds } from '../api/list-bills';
import { PAGE_SIZE, RecordsCard } from '../components/RecordsCard';
import styles from './bills-pages.module.css';

/** /console/orders: the instance orders (new, renewal, refund) with filters and pagination. */
export default function OrdersPage() {
  const [filters, setFilters] = useState<BillFilters>({});
  const [page, setPage] = useState(1);
  const { kind, ...rest } = filters;
  const records = useBillsOfKinds(kind ? [kind] : ORDER_BILL_KINDS, rest, page, PAGE_SIZE);
  useBalanceEvents();

  return (
    <div className={styles.page}>
      <PageHeader title={t.orders.title} subtitle={t.orders.subtitle} />
      <RecordsCard
        query={records}
        filters={filters}
        kinds={ORDER_BILL_KINDS}
        onFilters={(next) => {
          setFilters(next);
          setPage(1);
        }}
        page={page}
        onPage={setPage}
        variant="orders"
        emptyText={t.orders.empty}
        errorText={t.orders.loadFailed}
      />
    </div>
  );
}
