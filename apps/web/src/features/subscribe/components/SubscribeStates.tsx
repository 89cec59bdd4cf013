import { ReloadOutlined } from '@ant-design/icons';
import { Button, Result, Skeleton } from 'antd';
import { LinkButton } from '../../../components/LinkButton';
import { PATHS } from '../../../lib/routing/paths';
import { t } from '../../../locales/zh-CN';
import styles from './SubscribeStates.module.css';

const s = t.subscribe;

/** SPEC.md §2: the machine is not in the market (sold out, hidden, wrong id). */
export function NotFoundState() {
  return (
    <div className={styles.box} data-testid="subscribe-not-found">
      <Result
        status="404"
        title={s.notFound}
        subTitle={s.notFoundHint}
        extra={
          <LinkButton to={PATHS.market} type="primary" size="large" data-testid="back-to-market">
            {s.backToMarket}
          </LinkButton>
        }
      />
    </div>
  );
}

/** SPEC.md §8: '加载数据失败', with a retry. */
export function LoadFailedState({ onRetry, retrying }: { onRetry: () => void; retrying: boolean }) {
  return (
    <div className={styles.box} data-testid="subscribe-load-failed">
      <Result
        status="error"
        title={s.loadFailed}
        subTitle={s.loadFailedHint}
        extra={[
          <Button key="retry" type="primary" icon={<ReloadOutlined />} loading={retrying} onClick={onRetry}>
            {s.retry}
          </Button>,
          <LinkButton key="market" to={PATHS.market}>
            {s.backToMarket}
          </LinkButton>,
        ]}
      />
    </div>
  );
}

export function LoadingState() {
  return (
    <div className={styles.loading} aria-busy="true" data-testid="subscribe-loading">
      {[2, 3, 2].map((rows, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: placeholders without identity
        <div key={i} className={styles.box}>
          <Skeleton active paragraph={{ rows }} />
        </div>
      ))}
    </div>
  );
}
