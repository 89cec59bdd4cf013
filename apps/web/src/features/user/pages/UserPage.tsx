import { CrownOutlined, GiftOutlined, RiseOutlined, WalletOutlined } from '@ant-design/icons';
import { formatCurrency } from '@gpu/shared/money';
import { formatTime } from '@gpu/shared/time';
import { Alert, Card, Descriptions, Tag } from 'antd';
import { LinkButton } from '../../../components/LinkButton';
import { PATHS } from '../../../lib/routing/paths';
import { useSession } from '../../../lib/use-session';
import { t } from '../../../locales/zh-CN';
import styles from './UserPage.module.css';

const u = t.user;

/** SPEC.md §2: a static placeholder with sample values (balance, member level, account info). */
const SAMPLE = { balance: 1288.5, growth: '2,680', vouchers: 3 };

export default function UserPage() {
  const { user } = useSession();
  if (!user) return null;
  const phone = user.phone ? user.phone.replace(/^(\d{3})\d{4}(\d{4})$/, '$1****$2') : '-';

  const stats = [
    { icon: <WalletOutlined />, label: u.balance, value: formatCurrency(SAMPLE.balance, { group: true }) },
    { icon: <CrownOutlined />, label: u.memberLevel, value: u.memberLevelValue },
    { icon: <RiseOutlined />, label: u.growth, value: SAMPLE.growth },
    { icon: <GiftOutlined />, label: u.vouchers, value: u.vouchersValue(SAMPLE.vouchers) },
  ];

  return (
    <div className={styles.page}>
      <div className={styles.banner}>
        <span className={styles.avatar}>{user.username.slice(0, 1).toUpperCase()}</span>
        <div className={styles.who}>
          <h1>{user.username}</h1>
          <Tag color="gold" icon={<CrownOutlined />}>
            {u.memberLevelValue}
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

      <Alert type="info" showIcon title={u.sampleNotice} className={styles.notice} />

      <div className={styles.stats}>
        {stats.map((stat) => (
          <Card key={stat.label} className={styles.stat}>
            <span className={styles.statIcon}>{stat.icon}</span>
            <div className={styles.statLabel}>{stat.label}</div>
            <div className={styles.statValue}>{stat.value}</div>
          </Card>
        ))}
      </div>

      <Card title={u.accountInfo}>
        <Descriptions column={{ xs: 1, md: 2 }}>
          <Descriptions.Item label={u.username}>{user.username}</Descriptions.Item>
          <Descriptions.Item label={u.phone}>{phone}</Descriptions.Item>
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
    </div>
  );
}
