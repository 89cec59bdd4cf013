import { LeftOutlined } from '@ant-design/icons';
import type { BillingType } from '@gpu/shared/constants';
import { type ReactNode, useCallback } from 'react';
import { Link, useSearchParams } from 'react-router';
import { PATHS } from '../../../lib/routing/paths';
import { t } from '../../../locales/zh-CN';
import { useMarketItem } from '../api/get-market-item';
import { SubscribeForm } from '../components/SubscribeForm';
import { LoadFailedState, LoadingState, NotFoundState } from '../components/SubscribeStates';
import { billingTypeOf } from '../subscribe-params';
import styles from './SubscribePage.module.css';

const s = t.subscribe;

/** /subscribe?skuGpuId=&billingType= (SPEC.md §2): create an instance on one market machine. */
export default function SubscribePage() {
  const [params, setParams] = useSearchParams();
  const skuGpuId = params.get('skuGpuId')?.trim() ?? '';
  const billingType = billingTypeOf(params.get('billingType'));
  const item = useMarketItem(skuGpuId);

  // The billing choice lives in the URL, so a refresh or a shared link keeps it.
  const changeBilling = useCallback(
    (next: BillingType) =>
      setParams(
        (current) => {
          const copy = new URLSearchParams(current);
          copy.set('billingType', next);
          return copy;
        },
        { replace: true },
      ),
    [setParams],
  );

  let body: ReactNode;
  if (!skuGpuId) body = <NotFoundState />;
  else if (item.isPending) body = <LoadingState />;
  else if (item.isError && !item.data)
    body = <LoadFailedState onRetry={() => void item.refetch()} retrying={item.isFetching} />;
  else if (!item.data) body = <NotFoundState />;
  else
    body = (
      <SubscribeForm
        key={item.data.id}
        item={item.data}
        billingType={billingType}
        onBillingChange={changeBilling}
      />
    );

  return (
    <div className={styles.page}>
      <header className={styles.hero}>
        <div className={styles.heroInner}>
          <Link to={PATHS.market} className={styles.back}>
            <LeftOutlined /> {s.backToMarket}
          </Link>
          <h1 className={styles.title}>{s.title}</h1>
          <p className={styles.subtitle}>{s.subtitle}</p>
        </div>
      </header>
      <div className={styles.content}>{body}</div>
    </div>
  );
}
