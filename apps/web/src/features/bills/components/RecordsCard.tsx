import type { Bill } from '@gpu/shared/bills';
import type { Page } from '@gpu/shared/envelope';
import type { UseQueryResult } from '@tanstack/react-query';
import { Alert, Card, Grid, Pagination } from 'antd';
import { t } from '../../../locales/zh-CN';
import type { BillFilters } from '../api/list-bills';
import { BillFilterBar, type BillFilterBarProps } from './BillFilterBar';
import { BillList, BillTable } from './BillTable';
import styles from './RecordsCard.module.css';

export const PAGE_SIZE = 20;

/** Filters, then the records as a table (desktop) or a list (mobile), with pagination. */
export function RecordsCard({
  query,
  filters,
  kinds,
  onFilters,
  page,
  onPage,
  variant,
  emptyText,
  errorText,
}: {
  query: UseQueryResult<Page<Bill>, Error>;
  filters: BillFilters;
  kinds: BillFilterBarProps['kinds'];
  onFilters: (next: BillFilters) => void;
  page: number;
  onPage: (page: number) => void;
  variant: 'bills' | 'orders';
  emptyText: string;
  errorText: string;
}) {
  const mobile = Grid.useBreakpoint().md === false;
  const bills = query.data?.list ?? [];
  const total = query.data?.total ?? 0;
  return (
    <Card className={styles.card}>
      <BillFilterBar value={filters} kinds={kinds} onChange={onFilters} />
      {query.isError ? (
        <Alert
          className={styles.error}
          type="error"
          showIcon
          title={errorText}
          description={query.error.message}
        />
      ) : null}
      <div className={styles.records}>
        {mobile ? (
          <>
            <BillList bills={bills} emptyText={query.isLoading ? t.common.loading : emptyText} />
            {total > PAGE_SIZE ? (
              <Pagination
                className={styles.pager}
                simple
                current={page}
                pageSize={PAGE_SIZE}
                total={total}
                onChange={onPage}
              />
            ) : null}
          </>
        ) : (
          <BillTable
            bills={bills}
            loading={query.isFetching && !query.data ? true : query.isLoading}
            variant={variant}
            emptyText={emptyText}
            pagination={{
              current: page,
              pageSize: PAGE_SIZE,
              total,
              showSizeChanger: false,
              showTotal: (n) => t.bills.total(n),
              onChange: onPage,
              hideOnSinglePage: false,
            }}
          />
        )}
      </div>
    </Card>
  );
}
