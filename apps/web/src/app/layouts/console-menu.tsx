import {
  AccountBookOutlined,
  ApiOutlined,
  BellOutlined,
  CloudServerOutlined,
  DashboardOutlined,
  GiftOutlined,
  HddOutlined,
  HomeOutlined,
  NotificationOutlined,
  ProfileOutlined,
  SafetyCertificateOutlined,
  WalletOutlined,
} from '@ant-design/icons';
import type { MenuProps } from 'antd';
import { PATHS } from '../../lib/routing/paths';
import { t } from '../../locales/zh-CN';
import { NAV_LINKS } from './nav-links';
import { VoucherMenuLabel } from './VoucherMenuLabel';

const c = PATHS.console;
const r = t.routes;

/** SPEC.md §2 console sidebar: Home, Container instances, Fees group, Account group. */
export const CONSOLE_MENU: NonNullable<MenuProps['items']> = [
  { key: c.homepage, icon: <HomeOutlined />, label: t.console.home },
  { key: c.instance, icon: <CloudServerOutlined />, label: r.consoleInstance },
  { key: c.images, icon: <HddOutlined />, label: r.consoleImages },
  {
    type: 'group',
    key: 'fees',
    label: t.console.groupFees,
    children: [
      { key: c.orders, icon: <ProfileOutlined />, label: r.consoleOrders },
      { key: c.bills, icon: <AccountBookOutlined />, label: r.consoleBills },
      { key: c.rechargeOrders, icon: <WalletOutlined />, label: r.consoleRechargeOrders },
      { key: c.vouchers, icon: <GiftOutlined />, label: <VoucherMenuLabel label={r.consoleVouchers} /> },
      { key: c.spendingCaps, icon: <DashboardOutlined />, label: r.consoleSpendingCaps },
    ],
  },
  {
    type: 'group',
    key: 'account',
    label: t.console.groupAccount,
    children: [
      { key: c.accountSecurity, icon: <SafetyCertificateOutlined />, label: r.consoleAccountSecurity },
      { key: c.messages, icon: <BellOutlined />, label: r.consoleMessages },
      { key: c.notificationSettings, icon: <NotificationOutlined />, label: r.consoleNotificationSettings },
      { key: c.apiDocs, icon: <ApiOutlined />, label: r.consoleApiDocs },
    ],
  },
];

/**
 * The phone drawer's menu: the console's pages, then the top navigation's links, which the
 * drawer replaces on phones (the ☰ opens it instead of the site dropdown).
 */
export const CONSOLE_DRAWER_MENU: NonNullable<MenuProps['items']> = [
  ...CONSOLE_MENU,
  {
    type: 'group',
    key: 'site',
    label: t.console.siteLinks,
    children: NAV_LINKS.map((link) => ({ key: link.to, label: link.label })),
  },
];
