import {
  AccountBookOutlined,
  CloudServerOutlined,
  GiftOutlined,
  HomeOutlined,
  ProfileOutlined,
  SafetyCertificateOutlined,
  WalletOutlined,
} from '@ant-design/icons';
import { Layout, Menu, type MenuProps } from 'antd';
import { lazy, Suspense, useState } from 'react';
import { Outlet, useLocation, useNavigate } from 'react-router';
import { PageLoading } from '../../components/PageLoading';
import { PATHS } from '../../lib/routing/paths';
import { t } from '../../locales/zh-CN';
import styles from './ConsoleLayout.module.css';
import { TopNav } from './TopNav';
import { VoucherMenuLabel } from './VoucherMenuLabel';

// Its own chunk: the layout stays light (the watcher polls only after an order).
const CreationWatcher = lazy(() =>
  import('../../features/instances').then((m) => ({ default: m.CreationWatcher })),
);

const c = PATHS.console;
const r = t.routes;

/** SPEC.md §2 console sidebar: Home, Container instances, Fees group, Account group. */
const MENU: MenuProps['items'] = [
  { key: c.homepage, icon: <HomeOutlined />, label: t.console.home },
  { key: c.instance, icon: <CloudServerOutlined />, label: r.consoleInstance },
  {
    type: 'group',
    key: 'fees',
    label: t.console.groupFees,
    children: [
      { key: c.orders, icon: <ProfileOutlined />, label: r.consoleOrders },
      { key: c.bills, icon: <AccountBookOutlined />, label: r.consoleBills },
      { key: c.rechargeOrders, icon: <WalletOutlined />, label: r.consoleRechargeOrders },
      { key: c.vouchers, icon: <GiftOutlined />, label: <VoucherMenuLabel label={r.consoleVouchers} /> },
    ],
  },
  {
    type: 'group',
    key: 'account',
    label: t.console.groupAccount,
    children: [
      { key: c.accountSecurity, icon: <SafetyCertificateOutlined />, label: r.consoleAccountSecurity },
    ],
  },
];

const COLLAPSED_KEY = 'gpu.console.collapsed';

export default function ConsoleLayout() {
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const [collapsed, setCollapsed] = useState(() => window.localStorage.getItem(COLLAPSED_KEY) === '1');
  // The trigger's choice is remembered; the automatic collapse on narrow screens is not.
  const onCollapse = (value: boolean, type: 'clickTrigger' | 'responsive') => {
    setCollapsed(value);
    if (type === 'clickTrigger') window.localStorage.setItem(COLLAPSED_KEY, value ? '1' : '0');
  };

  return (
    <Layout className={styles.layout}>
      <TopNav wide />
      {/* Orders placed on the subscribe page end here: RUNNING (billing starts) or failed. */}
      <Suspense fallback={null}>
        <CreationWatcher />
      </Suspense>
      <Layout hasSider>
        <Layout.Sider
          collapsible
          collapsed={collapsed}
          onCollapse={onCollapse}
          breakpoint="lg"
          width={220}
          collapsedWidth={64}
          theme="light"
          className={styles.sider}
        >
          <Menu
            mode="inline"
            selectedKeys={[pathname]}
            items={MENU}
            onClick={({ key }) => navigate(key)}
            className={styles.menu}
          />
        </Layout.Sider>
        <Layout.Content className={styles.content}>
          <Suspense fallback={<PageLoading />}>
            <Outlet />
          </Suspense>
        </Layout.Content>
      </Layout>
    </Layout>
  );
}
