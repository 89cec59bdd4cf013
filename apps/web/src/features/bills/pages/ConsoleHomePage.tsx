import {
  CloudServerOutlined,
  FieldTimeOutlined,
  LineChartOutlined,
  RightOutlined,
  ThunderboltOutlined,
  WalletOutlined,
} from '@ant-design/icons';
import { formatMoney } from '@gpu/shared/money';
import { formatTime } from '@gpu/shared/time';
import { Card, Empty, Skeleton } from 'antd';
import { lazy, Suspense } from 'react';
import { Link } from 'react-router';
import { LinkButton } from '../../../components/LinkButton';
import { PageHeader } from '../../../components/PageHeader';
import { StatCard } from '../../../components/StatCard';
import { PATHS } from '../../../lib/routing/paths';
import { useTenant } from '../../../lib/tenant-context';
import { useSession } from '../../../lib/use-session';
import { t } from '../../../locales/zh-CN';
import {
  runwayText,
  spendRateText,
  useBalance,
  useBalanceEvents,
  useBillingMonitor,
  useDailyConsumption,
} from '../../billing';
import { GpuCell, StatusTag, useInstances } from '../../instances';
import styles from './ConsoleHomePage.module.css';

const DailyChart = lazy(() => import('../components/DailyChart'));
const o = t.overview;

/** /console/homepage: balance, running instances, spend, burn rate, 30-day chart, recent instances. */
export default function ConsoleHomePage() {
  const { user } = useSession();
  const tenant = useTenant();
  const balance = useBalance();
  const monitor = useBillingMonitor();
  const daily = useDailyConsumption(30);
  const recent = useInstances({ page: 1, size: 5 });
  useBalanceEvents();

  const m = monitor.data;
  // SPEC.md §8: a balance that cannot be loaded shows 0.00.
  const available = balance.data?.available ?? m?.available ?? (balance.isError ? 0 : undefined);
  const hasSpend = (daily.data ?? []).some((d) => d.amount !== 0);

  return (
    <div className={styles.page}>
      <PageHeader title={user ? o.greeting(user.username) : o.title} subtitle={o.subtitle} />

      <div className={styles.top}>
        <div className={styles.balance}>
          <div className={styles.balanceLabel}>
            <WalletOutlined /> {o.balance}
          </div>
          <div className={styles.balanceValue} data-testid="overview-balance">
            {available === undefined ? '--' : formatMoney(available)}
          </div>
          <div className={styles.balanceActions}>
            <LinkButton to={PATHS.recharge} className={styles.recharge}>
              {o.recharge}
            </LinkButton>
            <Link to={PATHS.console.bills} className={styles.balanceLink}>
              {o.viewBills} <RightOutlined />
            </Link>
          </div>
        </div>
        <div className={styles.stats}>
          <StatCard
            icon={<CloudServerOutlined />}
            label={o.running}
            loading={!m}
            value={m?.runningInstances ?? 0}
            unit={o.runningUnit}
            testId="overview-running"
            note={
              <Link to={PATHS.console.instance} className={styles.more}>
                {o.manage} <RightOutlined />
              </Link>
            }
          />
          <StatCard
            icon={<LineChartOutlined />}
            label={o.todaySpend}
            loading={!m}
            value={m ? formatMoney(m.todaySpend) : ''}
            testId="overview-today"
          />
          <StatCard
            icon={<FieldTimeOutlined />}
            label={o.monthSpend}
            loading={!m}
            value={m ? formatMoney(m.monthSpend) : ''}
            testId="overview-month"
          />
          <StatCard
            icon={<ThunderboltOutlined />}
            label={o.hourlyBurn}
            loading={!m}
            value={m ? spendRateText(m) : ''}
            note={m ? runwayText(m) : null}
            testId="overview-burn"
          />
        </div>
      </div>

      <div className={styles.bottom}>
        <Card title={o.chartTitle} className={styles.chartCard}>
          {daily.isError ? (
            <Empty description={o.loadFailed} />
          ) : !daily.data ? (
            <Skeleton active paragraph={{ rows: 6 }} />
          ) : (
            <Suspense fallback={<Skeleton active paragraph={{ rows: 6 }} />}>
              {hasSpend ? null : <div className={styles.chartNote}>{o.chartEmpty}</div>}
              <DailyChart data={daily.data} color={tenant.theme.primaryColor} />
            </Suspense>
          )}
        </Card>
        <Card
          title={o.recent}
          className={styles.recentCard}
          extra={
            <Link to={PATHS.console.instance} className={styles.more}>
              {o.viewAll} <RightOutlined />
            </Link>
          }
        >
          {recent.isLoading ? (
            <Skeleton active />
          ) : (recent.data?.list.length ?? 0) === 0 ? (
            <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={o.noInstances}>
              <LinkButton to={PATHS.market} type="primary">
                {t.instances.toMarket}
              </LinkButton>
            </Empty>
          ) : (
            <ul className={styles.recent} data-testid="recent-instances">
              {recent.data?.list.map((inst) => (
                <li key={inst.id} className={styles.recentItem}>
                  <div className={styles.recentHead}>
                    <Link to={PATHS.console.instance} className={styles.recentName}>
                      {inst.name}
                    </Link>
                    <StatusTag status={inst.status} />
                  </div>
                  <GpuCell inst={inst} />
                  <div className={styles.recentMeta}>
                    {t.instances.billingType[inst.billingType]} · {t.instances.createdAt}{' '}
                    {formatTime(inst.createdAt, 'MM-DD HH:mm')}
                  </div>
                </li>
              ))}
            </ul>
          )}
        </Card>
      </div>
    </div>
  );
}
