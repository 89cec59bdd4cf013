import { ReloadOutlined } from '@ant-design/icons';
import { MARKET_PAGE_SIZES } from '@gpu/shared/constants';
import type { MarketItem } from '@gpu/shared/market';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Empty, Pagination } from 'antd';
import { type ReactNode, useCallback, useEffect, useMemo } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { notify } from '../../../lib/feedback';
import { loginPath } from '../../../lib/routing/navigation';
import { isLoggedIn } from '../../../lib/session';
import { useSession } from '../../../lib/use-session';
import { t } from '../../../locales/zh-CN';
import { useMarket } from '../api/get-market';
import { useOverseasStatus } from '../api/get-overseas-status';
import { marketKeys } from '../api/keys';
import { syncMarket } from '../api/sync-market';
import { GpuCard } from '../components/GpuCard';
import { GpuCardSkeleton } from '../components/GpuCardSkeleton';
import { MarketFilterBar } from '../components/MarketFilterBar';
import { SyncStatus } from '../components/SyncStatus';
import {
  changeFilters,
  DEFAULT_FILTERS,
  filtersFromSearch,
  filtersToSearch,
  type MarketFilters,
} from '../market-filters';
import { subscribePath } from '../market-item';
import { useMarketSync } from '../use-market-sync';
import styles from './MarketPage.module.css';

const m = t.market;
const PAGE_SIZE_OPTIONS = MARKET_PAGE_SIZES.map(String);

/** /market (SPEC.md §2): filters, machine cards, pagination, background sync. */
export default function MarketPage() {
  const [params, setParams] = useSearchParams();
  const filters = useMemo(() => filtersFromSearch(params), [params]);
  const navigate = useNavigate();
  const session = useSession();
  const queryClient = useQueryClient();

  const { data, isPending, isFetching, isPlaceholderData } = useMarket(filters);
  // The sync is for signed-in customers (the server refuses others); visitors just see the list.
  const loggedIn = isLoggedIn(session);
  const syncing = useMarketSync(!isPending && loggedIn, data?.list.length);
  // The overseas region chosen: say why vast.ai machines may be missing (not configured, refresh failed).
  const overseasChosen = Boolean(data?.regions.some((r) => r.overseas && r.id === filters.regionId));
  const overseasStatus = useOverseasStatus(overseasChosen);
  const overseasNotice = overseasChosen ? overseasStatus.data?.message : null;

  const update = useCallback(
    (patch: Partial<MarketFilters>, options?: { replace?: boolean }) => {
      setParams((current) => filtersToSearch(changeFilters(filtersFromSearch(current), patch)), {
        replace: options?.replace,
      });
    },
    [setParams],
  );

  // A region chosen in a link that this tenant does not offer: drop it rather than show nothing.
  const regions = data?.regions;
  useEffect(() => {
    if (regions && filters.regionId !== undefined && !regions.some((r) => r.id === filters.regionId))
      update({ regionId: undefined }, { replace: true });
  }, [regions, filters.regionId, update]);

  // A page past the end (a stale link, or machines got rented): show the last page.
  useEffect(() => {
    if (!data || isPlaceholderData || data.list.length > 0 || data.total === 0 || filters.page === 1) return;
    update({ page: Math.max(1, Math.ceil(data.total / filters.size)) }, { replace: true });
  }, [data, isPlaceholderData, filters.page, filters.size, update]);

  const reload = useCallback(
    () => queryClient.invalidateQueries({ queryKey: marketKeys.all }),
    [queryClient],
  );

  const refresh = () => {
    void reload();
    // Also ask the hosts (the server runs it at most every 30 s); failures stay silent.
    if (loggedIn) syncMarket().then(reload, () => undefined);
  };

  const subscribe = (item: MarketItem) => {
    const target = subscribePath(item, filters.billingType);
    if (!isLoggedIn(session)) {
      void notify('warning', m.loginRequired);
      navigate(loginPath(target));
      return;
    }
    navigate(target);
  };

  const overseas = useMemo(() => new Set(regions?.filter((r) => r.overseas).map((r) => r.id)), [regions]);
  const list = data?.list ?? [];
  const total = data?.total ?? 0;

  let body: ReactNode;
  if (isPending) {
    body = (
      <div className={styles.grid} aria-busy="true">
        {Array.from({ length: 8 }, (_, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: placeholders without identity
          <GpuCardSkeleton key={i} />
        ))}
      </div>
    );
  } else if (list.length === 0) {
    body = (
      <div className={styles.empty} data-testid="market-empty">
        <Empty
          image={Empty.PRESENTED_IMAGE_SIMPLE}
          description={<span className={styles.emptyTitle}>{m.empty}</span>}
        >
          <p className={styles.emptyHint}>{m.emptyHint}</p>
          <Button type="primary" icon={<ReloadOutlined />} loading={isFetching} onClick={refresh}>
            {m.refresh}
          </Button>
        </Empty>
      </div>
    );
  } else {
    body = (
      <div
        className={`${styles.grid} ${isPlaceholderData ? styles.stale : ''}`}
        aria-busy={isFetching}
        data-testid="market-grid"
      >
        {list.map((item) => (
          <GpuCard
            key={item.id}
            item={item}
            billingType={filters.billingType}
            overseas={overseas.has(item.regionId)}
            onSubscribe={subscribe}
            onDiscountExpired={reload}
          />
        ))}
      </div>
    );
  }

  return (
    <div className={styles.page}>
      <header className={styles.hero}>
        <div className={styles.heroInner}>
          <div>
            <h1 className={styles.title}>{m.title}</h1>
            <p className={styles.subtitle}>{m.subtitle}</p>
          </div>
          <SyncStatus syncing={syncing} lastSyncedAt={data?.lastSyncedAt} />
        </div>
      </header>

      <div className={styles.content}>
        <MarketFilterBar
          filters={filters}
          regions={data?.regions ?? []}
          gpuModels={data?.gpuModels ?? []}
          onChange={update}
          loading={isPending}
          onReset={() =>
            setParams(
              filtersToSearch({ ...DEFAULT_FILTERS, billingType: filters.billingType, size: filters.size }),
            )
          }
        />

        {overseasNotice ? (
          <Alert
            type="info"
            showIcon
            message={t.overseas.notice(overseasNotice)}
            className={styles.overseasNotice}
            data-testid="overseas-notice"
          />
        ) : null}

        <div className={styles.toolbar}>
          <span className={styles.total} data-testid="market-total">
            {isPending ? '\u00a0' : m.total(total)}
          </span>
          <Button
            type="text"
            size="small"
            icon={<ReloadOutlined spin={isFetching && !isPending} />}
            onClick={refresh}
          >
            {m.refresh}
          </Button>
        </div>

        {body}

        {!isPending && total > 0 ? (
          <div className={styles.pager}>
            <Pagination
              current={filters.page}
              pageSize={filters.size}
              total={total}
              showSizeChanger
              pageSizeOptions={PAGE_SIZE_OPTIONS}
              showLessItems
              onChange={(page, size) => {
                update({ page, size });
                if (page !== filters.page) window.scrollTo({ top: 0, behavior: 'smooth' });
              }}
              data-testid="market-pagination"
            />
          </div>
        ) : null}
      </div>
    </div>
  );
}
