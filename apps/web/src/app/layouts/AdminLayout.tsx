import {
  AuditOutlined,
  BankOutlined,
  CloudServerOutlined,
  DashboardOutlined,
  DollarOutlined,
  GiftOutlined,
  HddOutlined,
  LogoutOutlined,
  MessageOutlined,
  MonitorOutlined,
  PercentageOutlined,
  SafetyOutlined,
  SendOutlined,
  TeamOutlined,
  UserOutlined,
} from '@ant-design/icons';
import { Button, Layout, Menu, type MenuProps } from 'antd';
import { Suspense, useState } from 'react';
import { Outlet, useLocation, useNavigate } from 'react-router';
import { LinkButton } from '../../components/LinkButton';
import { PageLoading } from '../../components/PageLoading';
import { TenantBrand } from '../../components/TenantBrand';
import { adminLogout, useAdminProfile } from '../../features/admin';
import { notify } from '../../lib/feedback';
import { PATHS } from '../../lib/routing/paths';
import { useSession } from '../../lib/use-session';
import { t } from '../../locales/zh-CN';
import styles from './AdminLayout.module.css';

const a = PATHS.admin;
const r = t.routes;

/** SPEC.md §2 admin children, in their order, then the audit log viewer. */
const MENU: MenuProps['items'] = [
  { key: a.dashboard, icon: <DashboardOutlined />, label: r.adminDashboard },
  { key: a.tenants, icon: <BankOutlined />, label: r.adminTenants },
  { key: a.tenantHosts, icon: <SafetyOutlined />, label: r.adminTenantHosts },
  { key: a.discountConfig, icon: <PercentageOutlined />, label: r.adminDiscountConfig },
  { key: a.voucherConfig, icon: <GiftOutlined />, label: r.adminVoucherConfig },
  { key: a.voucherDistribution, icon: <SendOutlined />, label: r.adminVoucherDistribution },
  { key: a.hostManagement, icon: <HddOutlined />, label: r.adminHostManagement },
  { key: a.tenantHostPricing, icon: <DollarOutlined />, label: r.adminTenantHostPricing },
  { key: a.balanceMonitoring, icon: <MonitorOutlined />, label: r.adminBalanceMonitoring },
  { key: a.userManagement, icon: <TeamOutlined />, label: r.adminUserManagement },
  { key: a.instanceManagement, icon: <CloudServerOutlined />, label: r.adminInstanceManagement },
  { key: a.auditLogs, icon: <AuditOutlined />, label: r.adminAuditLogs },
  { key: a.enquiries, icon: <MessageOutlined />, label: r.adminEnquiries },
];

export default function AdminLayout() {
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const { admin } = useSession();
  const profile = useAdminProfile();
  const [collapsed, setCollapsed] = useState(false);

  const logout = async () => {
    try {
      await adminLogout();
      void notify('success', t.userMenu.logoutSuccess);
    } catch {
      void notify('error', t.userMenu.logoutFailed);
    }
  };

  return (
    <Layout className={styles.layout}>
      <header className={styles.header}>
        <div className={styles.brand}>
          <TenantBrand size={30} />
          <span className={styles.tag}>{t.admin.brand}</span>
        </div>
        <div className={styles.actions}>
          <span className={styles.admin}>
            <UserOutlined /> {profile.data?.username ?? admin?.username}
          </span>
          <LinkButton to={PATHS.home} type="text">
            {t.admin.backToSite}
          </LinkButton>
          <Button icon={<LogoutOutlined />} onClick={logout} data-testid="admin-logout">
            {t.admin.logout}
          </Button>
        </div>
      </header>
      <Layout hasSider>
        <Layout.Sider
          collapsible
          collapsed={collapsed}
          onCollapse={setCollapsed}
          breakpoint="lg"
          width={220}
          collapsedWidth={64}
          className={styles.sider}
        >
          <Menu
            theme="dark"
            mode="inline"
            selectedKeys={[pathname]}
            items={MENU}
            onClick={({ key }) => navigate(key)}
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
