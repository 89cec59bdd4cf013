import type { AdminPermission } from '@gpu/shared/admin-access';
import type { Admin } from '@gpu/shared/auth';
import { PATHS } from './routing/paths';
import { useSession } from './use-session';

/**
 * What the signed-in administrator may do in the back office (issue 29). The permissions are
 * the server's (stored with the admin session, refreshed by GET /admin/auth/me), so the menu and
 * the buttons show exactly what the server allows; the server still checks every call.
 */
export const adminCan = (admin: Pick<Admin, 'permissions'> | null, permission: AdminPermission): boolean =>
  Boolean(admin?.permissions.includes(permission));

/** Whether the signed-in administrator holds `permission` (re-renders on login and refresh). */
export function useAdminCan(permission: AdminPermission): boolean {
  return adminCan(useSession().admin, permission);
}

const a = PATHS.admin;

/**
 * Every back-office page and the permission it needs to be opened (null: every administrator).
 * The one place the menu, the landing page and the 403 result read; in menu order.
 */
export const ADMIN_PAGES: readonly { path: string; permission: AdminPermission | null }[] = [
  { path: a.dashboard, permission: 'overview:read' },
  { path: a.tenants, permission: 'tenants:read' },
  { path: a.tenantHosts, permission: 'hosts:read' },
  { path: a.discountConfig, permission: 'pricing:read' },
  { path: a.voucherConfig, permission: 'pricing:read' },
  { path: a.voucherDistribution, permission: 'pricing:read' },
  { path: a.hostManagement, permission: 'hosts:read' },
  { path: a.tenantHostPricing, permission: 'pricing:read' },
  { path: a.balanceMonitoring, permission: 'finance:read' },
  { path: a.userManagement, permission: 'users:read' },
  { path: a.instanceManagement, permission: 'instances:read' },
  { path: a.auditLogs, permission: 'audit:read' },
  { path: a.enquiries, permission: 'enquiries:read' },
  { path: a.admins, permission: 'admins:read' },
  { path: a.security, permission: null },
];

/** Whether `admin` may open the back-office page at `pathname` (unknown paths: yes, the 404 shows). */
export function mayOpen(admin: Pick<Admin, 'permissions'> | null, pathname: string): boolean {
  const page = ADMIN_PAGES.find((p) => p.path === pathname);
  return !page || page.permission === null || adminCan(admin, page.permission);
}

/** The pages `admin` may open, in menu order (账号安全 always among them). */
export const allowedPages = (admin: Pick<Admin, 'permissions'> | null) =>
  ADMIN_PAGES.filter((p) => p.permission === null || adminCan(admin, p.permission));

/** Where /admin lands: the first page the administrator may open. */
export const adminLanding = (admin: Pick<Admin, 'permissions'> | null): string =>
  allowedPages(admin)[0]?.path ?? a.security;

/** The administrator must change the password or enrol 2FA before anything else. */
export const mustActFirst = (admin: Pick<Admin, 'mustChangePassword' | 'mustEnrolTotp'> | null) =>
  Boolean(admin?.mustChangePassword || admin?.mustEnrolTotp);
