import {
  CrownOutlined,
  FileTextOutlined,
  GiftOutlined,
  HistoryOutlined,
  RightOutlined,
  RiseOutlined,
  SafetyOutlined,
  WalletOutlined,
} from '@ant-design/icons';
import { formatMoney } from '@gpu/shared/money';
import { formatTime } from '@gpu/shared/time';
import { Card, Descriptions, Skeleton, Tag } from 'antd';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { LinkButton } from '../../../components/LinkButton';
import { PATHS } from '../../../lib/routing/paths';
import { useSession } from '../../../lib/use-session';
import { t } from '../../../locales/zh-CN';
import { useBalance, useBillingMonitor } from '../../billing';
import { useVoucherStats } from '../../vouchers';
import { maskPhone } from '../mask-phone';
import styles from './UserPage.module.css';

const u = t.user;
const money = (yuan: number) => formatMoney(yuan);

/** One figure of a query: a skeleton while it loads, 加载失败 if it failed, never a made-up ¥0.00. */
interface Figure {
  pending: boolean;
  failed: boolean;
  value?: ReactNode;
  sub?: ReactNode;
}

function figure<T>(
  q: { isPending: boolean; isError: boolean; data: T | undefined },
  show: (d: T) => Omit<Figure, 'pending' | 'failed'>,
): Figure {
  if (q.data !== undefined) return { pending: false, failed: false, ...show(q.data) };
  return { pending: q.isPending && !q.isError, failed: q.isError };
}

function Stat({ icon, label, testId, fig }: { icon: ReactNode; label: string; testId: string; fig: Figure }) {
  return (
    <Card
      className={styles.stat}
      data-testid={testId}
      data-state={fig.pending ? 'loading' : fig.failed ? 'error' : 'ready'}
    >
      <span className={styles.statIcon}>{icon}</span>
      <div className={styles.statLabel}>{label}</div>
      {fig.pending ? (
        <Skeleton.Input active size="small" className={styles.statSkeleton} aria-label={u.loading} />
      ) : fig.failed ? (
        <div className={styles.statFailed}>{u.loadFailed}</div>
      ) : (
        <>
          <div className={styles.statValue} data-testid={`${testId}-value`}>
            {fig.value}
          </div>
          {fig.sub ? <div className={styles.statSub}>{fig.sub}</div> : null}
        </>
      )}
    </Card>
  );
}

const SHORTCUTS = [
  {
    to: PATHS.console.accountSecurity,
    icon: <SafetyOutlined />,
    title: u.accountSecurity,
    hint: u.accountSecurityHint,
    id: 'account-security',
  },
  {
    to: PATHS.recharge,
    icon: <WalletOutlined />,
    title: u.rechargeLink,
    hint: u.rechargeHint,
    id: 'recharge',
  },
  { to: PATHS.console.orders, icon: <FileTextOutlined />, title: u.orders, hint: u.ordersHint, id: 'orders' },
  {
    to: PATHS.console.rechargeOrders,
    icon: <HistoryOutlined />,
    title: u.rechargeOrders,
    hint: u.rechargeOrdersHint,
    id: 'recharge-orders',
  },
];

/**
 * /user (SPEC.md §2): the signed-in customer's own figures: live balance and frozen amount, member
 * level, spend this month, usable vouchers, account info and the ways on from here. Every figure
 * comes from the customer's own endpoints (per-user query keys, dropped at sign-out).
 */
export default function UserPage() {
  const { user } = useSession();
  const signedIn = Boolean(user);
  const balance = useBalance(signedIn);
  const spend = useBillingMonitor();
  const vouchers = useVoucherStats(signedIn);
  if (!user) return null;
  // A phone-registered account's username is its phone: shown masked here like the phone itself.
  const name = user.username === user.phone ? maskPhone(user.phone) : user.username;

  const stats = [
    {
      icon: <WalletOutlined />,
      label: u.balance,
      testId: 'user-balance',
      fig: figure(balance, (b) => ({ value: money(b.available), sub: u.frozen(money(b.frozen)) })),
    },
    {
      icon: <CrownOutlined />,
      label: u.memberLevel,
      testId: 'user-level',
      fig: { pending: false, failed: false, value: u.memberLevelDefault },
    },
    {
      icon: <RiseOutlined />,
      label: u.monthSpend,
      testId: 'user-month-spend',
      fig: figure(spend, (s) => ({ value: money(s.monthSpend), sub: u.monthSpendHint })),
    },
    {
      icon: <GiftOutlined />,
      label: u.vouchers,
      testId: 'user-vouchers',
      fig: figure(vouchers, (v) => ({
        value: u.vouchersValue(v.unused),
        sub: u.vouchersHint(money(v.totalValue)),
      })),
    },
  ];

  return (
    <div className={styles.page} data-testid="user-page">
      <div className={styles.banner}>
        <span className={styles.avatar}>{name.slice(0, 1).toUpperCase()}</span>
        <div className={styles.who}>
          <h1 data-testid="user-name">{name}</h1>
          <Tag icon={<CrownOutlined />} className={styles.level} data-testid="user-level-tag">
            {u.memberLevelDefault}
          </Tag>
        </div>
        <div className={styles.actions}>
          <LinkButton to={PATHS.recharge} size="large">
            {u.recharge}
          </LinkButton>
          <LinkButton to={PATHS.console.root} size="large" ghost>
            {u.toConsole}
          </LinkButton>
        </div>
      </div>

      <div className={styles.stats}>
        {stats.map((stat) => (
          <Stat key={stat.testId} {...stat} />
        ))}
      </div>

      <div className={styles.columns}>
        <Card title={u.accountInfo} className={styles.info}>
          <Descriptions column={{ xs: 1, md: 2 }}>
            <Descriptions.Item label={u.username}>{name}</Descriptions.Item>
            <Descriptions.Item label={u.phone}>
              <span data-testid="user-phone">{maskPhone(user.phone)}</span>
            </Descriptions.Item>
            <Descriptions.Item label={u.email}>{user.email || u.emailNone}</Descriptions.Item>
            <Descriptions.Item label={u.certification}>
              <Tag color={user.certified ? 'success' : 'default'}>
                {user.certified ? t.userMenu.certified : t.userMenu.notCertified}
              </Tag>
            </Descriptions.Item>
            <Descriptions.Item label={u.registeredAt}>
              {formatTime(user.createdAt, 'YYYY-MM-DD HH:mm')}
            </Descriptions.Item>
          </Descriptions>
        </Card>
        <Card title={u.shortcuts} className={styles.shortcuts}>
          <nav className={styles.links}>
            {SHORTCUTS.map((s) => (
              <Link key={s.id} to={s.to} className={styles.link} data-testid={`user-link-${s.id}`}>
                <span className={styles.linkIcon}>{s.icon}</span>
                <span className={styles.linkText}>
                  <strong>{s.title}</strong>
                  <small>{s.hint}</small>
                </span>
                <RightOutlined className={styles.linkArrow} />
              </Link>
            ))}
          </nav>
        </Card>
      </div>
    </div>
  );
}
