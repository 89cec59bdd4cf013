import { formatMoney } from '@gpu/shared/money';
import { Button, Skeleton, Tag } from 'antd';
import { LinkButton } from '../../../components/LinkButton';
import { PATHS } from '../../../lib/routing/paths';
import { useSession } from '../../../lib/use-session';
import { t } from '../../../locales/zh-CN';
import { useBalance } from '../../billing';
import { useVoucherStats } from '../../vouchers';
import { useCurrentUser } from '../api/get-me';
import { useLogout } from '../api/logout';
import styles from './AccountPanel.module.css';

/**
 * The logged-in user's summary (SPEC.md §2): username, enterprise badge, available balance,
 * frozen balance (always 0.00), voucher total, recharge and logout. Load failures show 0.00;
 * until a figure arrives its row shows a skeleton, never a ¥0.00 that reads as an empty account.
 */
export function AccountPanel() {
  const { user } = useSession();
  const balance = useBalance();
  const vouchers = useVoucherStats();
  const logout = useLogout();
  // Refreshes the stored user (enterprise badge) whenever the panel opens.
  useCurrentUser();
  if (!user) return null;

  const rows = [
    {
      label: t.userMenu.availableBalance,
      value: balance.data?.available ?? 0,
      loading: balance.isPending,
      strong: true,
    },
    { label: t.userMenu.frozenBalance, value: 0, loading: balance.isPending },
    { label: t.userMenu.voucherTotal, value: vouchers.data?.totalValue ?? 0, loading: vouchers.isPending },
  ];

  return (
    <div className={styles.panel} data-testid="account-panel">
      <div className={styles.head}>
        <span className={styles.avatar}>{user.username.slice(0, 1).toUpperCase()}</span>
        <div className={styles.who}>
          <div className={styles.username}>{user.username}</div>
          <Tag color={user.certified ? 'success' : 'default'} className={styles.badge}>
            {user.certified ? t.userMenu.certified : t.userMenu.notCertified}
          </Tag>
        </div>
      </div>
      <dl className={styles.rows}>
        {rows.map((row) => (
          <div key={row.label} className={styles.row}>
            <dt>{row.label}</dt>
            <dd className={row.strong ? styles.strong : undefined} aria-busy={row.loading}>
              {row.loading ? (
                <span className={styles.loading} data-testid="account-loading">
                  <Skeleton.Input active size="small" style={{ width: 72, minWidth: 72, height: 18 }} />
                </span>
              ) : (
                formatMoney(row.value)
              )}
            </dd>
          </div>
        ))}
      </dl>
      <div className={styles.actions}>
        <LinkButton to={PATHS.recharge} type="primary" block>
          {t.userMenu.recharge}
        </LinkButton>
        <LinkButton to={PATHS.user} block>
          {t.userMenu.personalCenter}
        </LinkButton>
        <Button type="text" danger block onClick={logout} data-testid="logout">
          {t.userMenu.logout}
        </Button>
      </div>
    </div>
  );
}
