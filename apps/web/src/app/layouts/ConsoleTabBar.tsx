import { CloudServerOutlined, PayCircleOutlined, UserOutlined, WalletOutlined } from '@ant-design/icons';
import type { ReactNode } from 'react';
import { Link, useLocation } from 'react-router';
import { PATHS } from '../../lib/routing/paths';
import { t } from '../../locales/zh-CN';
import styles from './ConsoleTabBar.module.css';

const c = PATHS.console;
const tabs = t.console.tabs;

interface Tab {
  id: 'instance' | 'fees' | 'recharge' | 'mine';
  to: string;
  label: string;
  icon: ReactNode;
  /** The routes this tab stands for: it is highlighted on any of them. */
  routes: readonly string[];
}

/**
 * The phone's bottom tabs. 费用 opens 费用明细 (/console/bills), the page of what was spent, and
 * stands for the whole fees group; 我的 stands for 个人中心, 账号安全, 消息中心 and 通知设置.
 */
export const CONSOLE_TABS: readonly Tab[] = [
  {
    id: 'instance',
    to: c.instance,
    label: tabs.instance,
    icon: <CloudServerOutlined />,
    routes: [c.instance, c.homepage],
  },
  {
    id: 'fees',
    to: c.bills,
    label: tabs.fees,
    icon: <PayCircleOutlined />,
    routes: [c.bills, c.orders, c.rechargeOrders, c.vouchers, c.spendingCaps],
  },
  {
    id: 'recharge',
    to: PATHS.recharge,
    label: tabs.recharge,
    icon: <WalletOutlined />,
    routes: [PATHS.recharge],
  },
  {
    id: 'mine',
    to: PATHS.user,
    label: tabs.mine,
    icon: <UserOutlined />,
    routes: [PATHS.user, c.accountSecurity, c.messages, c.notificationSettings, c.apiDocs],
  },
];

/** The routes outside the console that show the tab bar too (a tab leads there). */
export const TAB_BAR_ROUTES: readonly string[] = [PATHS.recharge, PATHS.user];

/** Fixed bottom tabs on phones (hidden from md up by its CSS); the page pads itself above it. */
export function ConsoleTabBar() {
  const { pathname } = useLocation();
  return (
    <nav className={styles.bar} aria-label={t.console.tabBar} data-testid="console-tab-bar">
      {CONSOLE_TABS.map((tab) => {
        const active = tab.routes.includes(pathname);
        return (
          <Link
            key={tab.id}
            to={tab.to}
            className={`${styles.tab} ${active ? styles.active : ''}`}
            aria-current={active ? 'page' : undefined}
            data-testid={`console-tab-${tab.id}`}
          >
            <span className={styles.icon}>{tab.icon}</span>
            <span className={styles.label}>{tab.label}</span>
          </Link>
        );
      })}
    </nav>
  );
}
