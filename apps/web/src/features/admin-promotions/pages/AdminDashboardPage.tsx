import { formatMoney } from '@gpu/shared/money';
import { Alert, Card } from 'antd';
import { ComputedAt } from '../../../components/admin/ComputedAt';
import { PageHeader } from '../../../components/PageHeader';
import { StatCard, StatGrid } from '../../../components/StatCard';
import { t } from '../../../locales/zh-CN';
import { ta } from '../../../locales/zh-CN.admin';
import { OpsDashboard } from '../../admin-ops';
import { useDashboard } from '../api/promotions';
import { DiscountTable } from '../components/DiscountTable';
import styles from './AdminPage.module.css';

const k = ta.adminDashboard;
const d = ta.adminDiscount;

/**
 * /admin/dashboard: key figures, the operations dashboard (trends, occupancy, failures, hosts,
 * low balances), then the discount configuration screen SPEC.md §2 puts here.
 */
export default function AdminDashboardPage() {
  const dash = useDashboard();
  const f = dash.data;
  const figures = [
    { key: 'users', title: k.users, value: f?.users ?? 0 },
    { key: 'running', title: k.running, value: f?.runningInstances ?? 0 },
    { key: 'revenue', title: k.todayRevenue, value: formatMoney(f?.todayRevenue ?? 0) },
    { key: 'balances', title: k.totalBalances, value: formatMoney(f?.totalBalances ?? 0) },
    { key: 'discounts', title: k.activeDiscounts, value: f?.activeDiscounts ?? 0 },
    { key: 'vouchers', title: k.unusedVoucherValue, value: formatMoney(f?.unusedVoucherValue ?? 0) },
  ];
  return (
    <>
      <PageHeader title={t.routes.adminDashboard} subtitle={k.subtitle} />
      {dash.isError ? (
        <Alert type="error" showIcon message={k.loadFailed} className={styles.preview} />
      ) : null}
      <StatGrid testId="admin-figures">
        {figures.map((x) => (
          <StatCard key={x.key} label={x.title} value={x.value} loading={dash.isPending} />
        ))}
      </StatGrid>
      <ComputedAt at={f?.computedAt} testId="figures-computed-at" />
      <OpsDashboard />
      <Card
        className={`${styles.card} ${styles.section}`}
        title={d.title}
        extra={<span className={styles.subtitle}>{d.subtitle}</span>}
      >
        <DiscountTable />
      </Card>
    </>
  );
}
