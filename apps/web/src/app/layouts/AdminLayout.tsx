import {
  AuditOutlined,
  BankOutlined,
  CloudServerOutlined,
  DashboardOutlined,
  DollarOutlined,
  GiftOutlined,
  HddOutlined,
  LockOutlined,
  LogoutOutlined,
  MessageOutlined,
  MonitorOutlined,
  PercentageOutlined,
  SafetyOutlined,
  SendOutlined,
  StopOutlined,
  TeamOutlined,
  UserOutlined,
  UserSwitchOutlined,
} from '@ant-design/icons';
import { Button, Layout, Menu } from 'antd';
import { type ReactNode, Suspense, useState } from 'react';
import { Navigate, Outlet, useLocation, useNavigate } from 'react-router';
import { LinkButton } from '../../components/LinkButton';
import { PageLoading } from '../../components/PageLoading';
import { TenantBrand } from '../../components/TenantBrand';
import { adminLogout, useAdminProfile } from '../../features/admin';
import { ADMIN_PAGES, adminLanding, allowedPages, mayOpen, mustActFirst } from '../../lib/admin-access';
import { notify } from '../../lib/feedback';
import { PATHS } from '../../lib/routing/paths';
import { useSession } from '../../lib/use-session';
import { t } from '../../locales/zh-CN';
import { ta } from '../../locales/zh-CN.admin';
import styles from './AdminLayout.module.css';

const a = PATHS.admin;
const r = t.routes;

/** Each page's menu entry; which of them shows is decided by ADMIN_PAGES (lib/admin-access). */
const MENU_ENTRY: Record<string, { icon: ReactNode; label: string }> = {
  [a.dashboard]: { icon: <DashboardOutlined />, label: r.adminDashboard },
  [a.tenants]: { icon: <BankOutlined />, label: r.adminTenants },
  [a.tenantHosts]: { icon: <SafetyOutlined />, label: r.adminTenantHosts },
  [a.discountConfig]: { icon: <PercentageOutlined />, label: r.adminDiscountConfig },
  [a.voucherConfig]: { icon: <GiftOutlined />, label: r.adminVoucherConfig },
  [a.voucherDistribution]: { icon: <SendOutlined />, label: r.adminVoucherDistribution },
  [a.hostManagement]: { icon: <HddOutlined />, label: r.adminHostManagement },
  [a.tenantHostPricing]: { icon: <DollarOutlined />, label: r.adminTenantHostPricing },
  [a.balanceMonitoring]: { icon: <MonitorOutlined />, label: r.adminBalanceMonitoring },
  [a.userManagement]: { icon: <TeamOutlined />, label: r.adminUserManagement },
  [a.instanceManagement]: { icon: <CloudServerOutlined />, label: r.adminInstanceManagement },
  [a.auditLogs]: { icon: <AuditOutlined />, label: r.adminAuditLogs },
  [a.enquiries]: { icon: <MessageOutlined />, label: r.adminEnquiries },
  [a.admins]: { icon: <UserSwitchOutlined />, label: r.adminAdmins },
  [a.security]: { icon: <LockOutlined />, label: r.adminSecurity },
};

/** The page itself, a landing redirect, the forced step, or the 403 result. */
function Page() {
  const { pathname } = useLocation();
  const { admin } = useSession();
  const landing = adminLanding(admin);
  // Until the password is changed or 2FA enrolled, only 账号安全 opens (the server says the same).
  if (mustActFirst(admin) && pathname !== a.security) return <Navigate to={a.security} replace />;
  if ((pathname === a.root || pathname === a.dashboard) && !mayOpen(admin, a.dashboard))
    return <Navigate to={landing} replace />;
  // antd's Result would bring its three illustrations into every back-office page: a plain block.
  if (!mayOpen(admin, pathname))
    return (
      <section className={styles.forbidden} data-testid="admin-forbidden">
        <StopOutlined className={styles.forbiddenIcon} />
        <h1>{ta.admin.forbiddenTitle}</h1>
        <p>{ta.admin.forbidden}</p>
        <LinkButton to={landing} type="primary">
          {ta.admin.forbiddenHome}
        </LinkButton>
      </section>
    );
  return (
    <Suspense fallback={<PageLoading />}>
      <Outlet />
    </Suspense>
  );
}

export default function AdminLayout() {
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const { admin: stored } = useSession();
  const profile = useAdminProfile();
  const [collapsed, setCollapsed] = useState(false);
  const admin = stored ?? profile.data ?? null;
  const pages = mustActFirst(admin) ? ADMIN_PAGES.filter((p) => p.path === a.security) : allowedPages(admin);
  const menu = pages.map((p) => ({ key: p.path, ...MENU_ENTRY[p.path] }));

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
          <span className={styles.tag}>{ta.admin.brand}</span>
        </div>
        <div className={styles.actions}>
          <span className={styles.admin} data-testid="admin-identity">
            <UserOutlined /> {admin?.username}
            {admin ? (
              <span className={styles.role} data-testid="admin-role">
                {ta.admin.roles[admin.role]}
                {admin.tenantName ? ` · ${ta.admin.tenantOperator(admin.tenantName)}` : ''}
              </span>
            ) : null}
          </span>
          <LinkButton to={PATHS.home} type="text">
            {ta.admin.backToSite}
          </LinkButton>
          <Button icon={<LogoutOutlined />} onClick={logout} data-testid="admin-logout">
            {ta.admin.logout}
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
            items={menu}
            onClick={({ key }) => navigate(key)}
            data-testid="admin-menu"
          />
        </Layout.Sider>
        <Layout.Content className={styles.content}>
          <Page />
        </Layout.Content>
      </Layout>
    </Layout>
  );
}
