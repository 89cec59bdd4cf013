import { formatMoney } from '@gpu/shared/money';
import { Alert, Card, Statistic } from 'antd';
import { t } from '../../../locales/zh-CN';
import { useDashboard } from '../api/promotions';
import { DiscountTable } from '../components/DiscountTable';
import styles from './AdminPage.module.css';

const k = t.adminDashboard;
const d = t.adminDiscount;

/** /admin/dashboard: key figures, then the discount configuration screen (SPEC.md §2). */
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
      {dash.isError ? (
        <Alert type="error" showIcon message={k.loadFailed} className={styles.preview} />
      ) : null}
      <div className={styles.figures} data-testid="admin-figures">
        {figures.map((x) => (
          <Card key={x.key} size="small" className={styles.card} loading={dash.isPending}>
            <Statistic title={x.title} value={x.value} />
          </Card>
        ))}
      </div>
      <Card
        className={styles.card}
        title={
          <span className={styles.heading}>
            <span className={styles.title}>{d.title}</span>
            <span className={styles.subtitle}>{d.subtitle}</span>
          </span>
        }
      >
        <DiscountTable />
      </Card>
    </>
  );
}
