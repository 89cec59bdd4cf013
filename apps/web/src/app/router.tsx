import { type ComponentType, lazy } from 'react';
import { createBrowserRouter, Navigate, type RouteObject } from 'react-router';
import { PageLoading } from '../components/PageLoading';
import type { Guard } from '../lib/routing/navigation';
import { PATHS } from '../lib/routing/paths';
import type { RouteHandle } from '../lib/routing/route-handle';
import { t } from '../locales/zh-CN';
import { AntdScope } from './AntdScope';
import PublicLayout from './layouts/PublicLayout';
import { RouteError } from './RouteError';
import { RouteGate } from './RouteGate';

// Pages and the non-public layouts are separate chunks: the homepage never loads console or
// admin code.
const HomePage = lazy(() => import('../features/home/pages/HomePage'));
const UserPage = lazy(() => import('../features/user/pages/UserPage'));
const SubscribePage = lazy(() => import('../features/subscribe/pages/SubscribePage'));
const MarketPage = lazy(() => import('../features/market/pages/MarketPage'));
const CloudPage = lazy(() => import('../features/cloud/pages/CloudPage'));
const RechargePage = lazy(() => import('../features/recharge/pages/RechargePage'));
const RechargeOrdersPage = lazy(() => import('../features/recharge/pages/RechargeOrdersPage'));
const ConsoleHomePage = lazy(() => import('../features/bills/pages/ConsoleHomePage'));
const InstancesPage = lazy(() => import('../features/instances/pages/InstancesPage'));
const OrdersPage = lazy(() => import('../features/bills/pages/OrdersPage'));
const BillsPage = lazy(() => import('../features/bills/pages/BillsPage'));
const LoginPage = lazy(() => import('../features/auth/pages/LoginPage'));
const RegisterPage = lazy(() => import('../features/auth/pages/RegisterPage'));
const ForgotPasswordPage = lazy(() => import('../features/auth/pages/ForgotPasswordPage'));
const AdminLoginPage = lazy(() => import('../features/admin/pages/AdminLoginPage'));
const AdminsPage = lazy(() => import('../features/admin/pages/AdminsPage'));
const AdminSecurityPage = lazy(() => import('../features/admin/pages/AdminSecurityPage'));
const BalanceMonitoringPage = lazy(() => import('../features/admin-ops/pages/BalanceMonitoringPage'));
const UserManagementPage = lazy(() => import('../features/admin-ops/pages/UserManagementPage'));
const InstanceManagementPage = lazy(() => import('../features/admin-ops/pages/InstanceManagementPage'));
const AuditLogPage = lazy(() => import('../features/admin-ops/pages/AuditLogPage'));
const VouchersPage = lazy(() => import('../features/vouchers/pages/VouchersPage'));
const AdminDashboardPage = lazy(() => import('../features/admin-promotions/pages/AdminDashboardPage'));
const DiscountConfigPage = lazy(() => import('../features/admin-promotions/pages/DiscountConfigPage'));
const VoucherConfigPage = lazy(() => import('../features/admin-promotions/pages/VoucherConfigPage'));
const VoucherDistributionPage = lazy(
  () => import('../features/admin-promotions/pages/VoucherDistributionPage'),
);
const ContactPage = lazy(() => import('../features/contact/pages/ContactPage'));
const AdminEnquiriesPage = lazy(() => import('../features/contact/pages/AdminEnquiriesPage'));
const MyImagesPage = lazy(() => import('../features/images/pages/MyImagesPage'));
const AccountSecurityPage = lazy(() => import('../features/account/pages/AccountSecurityPage'));
const SpendingCapsPage = lazy(() => import('../features/guards/pages/SpendingCapsPage'));
const MessagesPage = lazy(() => import('../features/notifications/pages/MessagesPage'));
const NotificationSettingsPage = lazy(
  () => import('../features/notifications/pages/NotificationSettingsPage'),
);
const ApiDocsPage = lazy(() => import('../features/api-docs/pages/ApiDocsPage'));
const BlockchainPage = lazy(() => import('../features/blockchain/pages/BlockchainPage'));
const AiNavigationPage = lazy(() => import('../features/ai-navigation/pages/AiNavigationPage'));
const NotFoundPage = lazy(() => import('../components/NotFoundPage'));
const ConsoleLayout = lazy(() => import('./layouts/ConsoleLayout'));
const AuthLayout = lazy(() => import('./layouts/AuthLayout'));
const AdminLayout = lazy(() => import('./layouts/AdminLayout'));
const TenantsPage = lazy(() => import('../features/admin-catalogue/pages/TenantsPage'));
const TenantHostsPage = lazy(() => import('../features/admin-catalogue/pages/TenantHostsPage'));
const TenantPricingPage = lazy(() => import('../features/admin-catalogue/pages/TenantPricingPage'));
const HostManagementPage = lazy(() => import('../features/admin-catalogue/pages/HostManagementPage'));

type RouteDef = { path: string; title?: string; guard: Guard } & (
  | { page: ComponentType }
  | { redirect: string }
);

interface LayoutDef {
  layout: ComponentType;
  routes: RouteDef[];
}

const r = t.routes;

/** SPEC.md §2: every route, its title, guard and page, grouped by layout. */
export const ROUTE_TABLE: LayoutDef[] = [
  {
    layout: PublicLayout,
    routes: [
      { path: PATHS.home, guard: 'public', page: HomePage },
      { path: PATHS.market, title: r.market, guard: 'public', page: MarketPage },
      { path: PATHS.cloud, title: r.cloud, guard: 'public', page: CloudPage },
      { path: PATHS.contact, title: r.contact, guard: 'public', page: ContactPage },
      { path: PATHS.aiNavigation, title: r.aiNavigation, guard: 'public', page: AiNavigationPage },
      { path: PATHS.subscribe, title: r.subscribe, guard: 'auth', page: SubscribePage },
      { path: PATHS.recharge, title: r.recharge, guard: 'auth', page: RechargePage },
      { path: PATHS.blockchain, title: r.blockchain, guard: 'auth', page: BlockchainPage },
      { path: PATHS.user, title: r.user, guard: 'auth', page: UserPage },
      { path: '*', title: r.notFound, guard: 'public', page: NotFoundPage },
    ],
  },
  {
    layout: ConsoleLayout,
    routes: [
      { path: PATHS.console.root, title: r.console, guard: 'auth', redirect: PATHS.console.instance },
      { path: PATHS.console.homepage, title: r.consoleHome, guard: 'auth', page: ConsoleHomePage },
      { path: PATHS.console.instance, title: r.consoleInstance, guard: 'auth', page: InstancesPage },
      { path: PATHS.console.images, title: r.consoleImages, guard: 'auth', page: MyImagesPage },
      { path: PATHS.console.orders, title: r.consoleOrders, guard: 'auth', page: OrdersPage },
      { path: PATHS.console.bills, title: r.consoleBills, guard: 'auth', page: BillsPage },
      {
        path: PATHS.console.rechargeOrders,
        title: r.consoleRechargeOrders,
        guard: 'auth',
        page: RechargeOrdersPage,
      },
      { path: PATHS.console.vouchers, title: r.consoleVouchers, guard: 'auth', page: VouchersPage },
      {
        path: PATHS.console.accountSecurity,
        title: r.consoleAccountSecurity,
        guard: 'auth',
        page: AccountSecurityPage,
      },
      {
        path: PATHS.console.spendingCaps,
        title: r.consoleSpendingCaps,
        guard: 'auth',
        page: SpendingCapsPage,
      },
      // Issue 31: the message centre and its per-event channels and webhooks.
      { path: PATHS.console.messages, title: r.consoleMessages, guard: 'auth', page: MessagesPage },
      {
        path: PATHS.console.notificationSettings,
        title: r.consoleNotificationSettings,
        guard: 'auth',
        page: NotificationSettingsPage,
      },
      // Issue 32: the OpenAPI document, readable for signed-in customers.
      { path: PATHS.console.apiDocs, title: r.consoleApiDocs, guard: 'auth', page: ApiDocsPage },
    ],
  },
  {
    // Navbar hidden; tenant logo and name shown.
    layout: AuthLayout,
    routes: [
      { path: PATHS.login, title: r.login, guard: 'guest', page: LoginPage },
      { path: PATHS.register, title: r.register, guard: 'guest', page: RegisterPage },
      { path: PATHS.forgotPassword, title: r.forgotPassword, guard: 'guest', page: ForgotPasswordPage },
      { path: PATHS.admin.login, title: r.adminLogin, guard: 'adminGuest', page: AdminLoginPage },
    ],
  },
  {
    layout: AdminLayout,
    routes: [
      { path: PATHS.admin.root, title: r.adminDashboard, guard: 'admin', redirect: PATHS.admin.dashboard },
      { path: PATHS.admin.dashboard, title: r.adminDashboard, guard: 'admin', page: AdminDashboardPage },
      { path: PATHS.admin.tenants, title: r.adminTenants, guard: 'admin', page: TenantsPage },
      { path: PATHS.admin.tenantHosts, title: r.adminTenantHosts, guard: 'admin', page: TenantHostsPage },
      {
        path: PATHS.admin.discountConfig,
        title: r.adminDiscountConfig,
        guard: 'admin',
        page: DiscountConfigPage,
      },
      {
        path: PATHS.admin.voucherConfig,
        title: r.adminVoucherConfig,
        guard: 'admin',
        page: VoucherConfigPage,
      },
      {
        path: PATHS.admin.voucherDistribution,
        title: r.adminVoucherDistribution,
        guard: 'admin',
        page: VoucherDistributionPage,
      },
      {
        path: PATHS.admin.hostManagement,
        title: r.adminHostManagement,
        guard: 'admin',
        page: HostManagementPage,
      },
      {
        path: PATHS.admin.tenantHostPricing,
        title: r.adminTenantHostPricing,
        guard: 'admin',
        page: TenantPricingPage,
      },
      {
        path: PATHS.admin.balanceMonitoring,
        title: r.adminBalanceMonitoring,
        guard: 'admin',
        page: BalanceMonitoringPage,
      },
      {
        path: PATHS.admin.userManagement,
        title: r.adminUserManagement,
        guard: 'admin',
        page: UserManagementPage,
      },
      {
        path: PATHS.admin.instanceManagement,
        title: r.adminInstanceManagement,
        guard: 'admin',
        page: InstanceManagementPage,
      },
      { path: PATHS.admin.auditLogs, title: r.adminAuditLogs, guard: 'admin', page: AuditLogPage },
      { path: PATHS.admin.enquiries, title: r.adminEnquiries, guard: 'admin', page: AdminEnquiriesPage },
      // Issue 29: administrators (super administrators) and one's own account (everyone).
      { path: PATHS.admin.admins, title: r.adminAdmins, guard: 'admin', page: AdminsPage },
      { path: PATHS.admin.security, title: r.adminSecurity, guard: 'admin', page: AdminSecurityPage },
    ],
  },
];

function toRouteObject(def: RouteDef): RouteObject {
  const handle: RouteHandle = { title: def.title, guard: def.guard };
  if ('redirect' in def) return { path: def.path, handle, element: <Navigate to={def.redirect} replace /> };
  const Page = def.page;
  // The homepage is plain React and CSS: `/` does not load antd.
  if (Page === HomePage) return { path: def.path, handle, element: <Page /> };
  return {
    path: def.path,
    handle,
    element: (
      <AntdScope fallback={<PageLoading />}>
        <Page />
      </AntdScope>
    ),
  };
}

export const appRoutes: RouteObject[] = [
  {
    element: <RouteGate />,
    errorElement: <RouteError />,
    children: ROUTE_TABLE.map(({ layout: Layout, routes }) => ({
      // The public layout (top navigation, footer) is plain; the console and admin layouts use antd.
      element:
        Layout === PublicLayout ? (
          <Layout />
        ) : (
          <AntdScope fallback={<PageLoading fullscreen />}>
            <Layout />
          </AntdScope>
        ),
      children: routes.map(toRouteObject),
    })),
  },
];

export const createAppRouter = () => createBrowserRouter(appRoutes);
