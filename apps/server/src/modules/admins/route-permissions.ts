import type { RoutePermission } from '@gpu/shared';

/**
 * Every admin route and the permission it needs: the one place the back office's access is
 * decided (issue 29). A route under /api/admin/ that is missing here refuses to register, and
 * `route-permissions.test.ts` checks each entry against a real request per role. `self`: any
 * signed-in administrator (even one who must first change the password or enrol 2FA);
 * `public`: no token (sign-in steps).
 */
export const ADMIN_ROUTE_PERMISSIONS: Readonly<Record<string, RoutePermission>> = {
  // Sign-in and one's own account
  'POST /api/admin/auth/login': 'public',
  'POST /api/admin/auth/totp/verify': 'public',
  'POST /api/admin/auth/refresh': 'public',
  'GET /api/admin/auth/me': 'self',
  'POST /api/admin/auth/logout': 'self',
  'POST /api/admin/auth/change-password': 'self',
  'POST /api/admin/auth/totp/enrol': 'self',
  'POST /api/admin/auth/totp/confirm': 'self',
  'POST /api/admin/auth/totp/disable': 'self',
  'POST /api/admin/auth/totp/recovery-codes': 'self',
  'GET /api/admin/auth/sessions': 'self',
  'DELETE /api/admin/auth/sessions/:sid': 'self',
  // The full API document (customer and back-office routes)
  'GET /api/admin/docs/json': 'self',

  // Administrators
  'GET /api/admin/admins': 'admins:read',
  'POST /api/admin/admins': 'admins:write',
  'PUT /api/admin/admins/:id': 'admins:write',
  'POST /api/admin/admins/:id/reset-password': 'admins:write',
  'POST /api/admin/admins/:id/reset-totp': 'admins:write',
  'GET /api/admin/admins/:id/sessions': 'admins:read',
  'DELETE /api/admin/admins/:id/sessions/:sid': 'admins:write',
  'GET /api/admin/admins/totp-policy': 'admins:read',
  'PUT /api/admin/admins/totp-policy': 'admins:write',

  // Overview
  'GET /api/admin/dashboard': 'overview:read',
  'GET /api/admin/ops-dashboard': 'overview:read',

  // Audit
  'GET /api/admin/audit-logs': 'audit:read',
  'GET /api/admin/audit-logs/actions': 'audit:read',
  'GET /api/admin/audit-logs/admins': 'audit:read',

  // Hosts
  'GET /api/admin/hosts': 'hosts:read',
  'POST /api/admin/hosts': 'hosts:write',
  'GET /api/admin/hosts/statistics': 'hosts:read',
  'GET /api/admin/hosts/type/:type': 'hosts:read',
  'GET /api/admin/hosts/:id': 'hosts:read',
  'PUT /api/admin/hosts/:id': 'hosts:write',
  'DELETE /api/admin/hosts/:id': 'hosts:write',
  'PATCH /api/admin/hosts/:id/status': 'hosts:write',
  'POST /api/admin/hosts/:id/test-connection': 'hosts:write',
  'POST /api/admin/hosts/:id/init-ports': 'hosts:write',
  'GET /api/admin/hosts/:id/metrics': 'hosts:read',
  'POST /api/admin/market/sync': 'hosts:write',
  'GET /api/admin/tenants/:id/hosts': 'hosts:read',
  'PUT /api/admin/tenants/:id/hosts': 'hosts:write',

  // Catalogue
  'GET /api/admin/user-images/quota': 'catalogue:read',
  'PUT /api/admin/user-images/quota': 'catalogue:write',
  'GET /api/admin/regions': 'catalogue:read',
  'POST /api/admin/regions': 'catalogue:write',
  'PUT /api/admin/regions/:id': 'catalogue:write',
  'GET /api/admin/regions/:id/gpu-types': 'catalogue:read',
  'PUT /api/admin/regions/:id/gpu-types/status': 'catalogue:write',
  'GET /api/admin/gpu-types': 'catalogue:read',
  'GET /api/admin/images': 'catalogue:read',
  'POST /api/admin/images': 'catalogue:write',
  'GET /api/admin/images/:id': 'catalogue:read',
  'PUT /api/admin/images/:id': 'catalogue:write',
  'GET /api/admin/gpu-sku': 'catalogue:read',
  'POST /api/admin/gpu-sku': 'catalogue:write',
  'GET /api/admin/gpu-sku/all': 'catalogue:read',
  'POST /api/admin/gpu-sku/sync': 'catalogue:write',
  'GET /api/admin/gpu-sku/:id': 'catalogue:read',
  'PUT /api/admin/gpu-sku/:id': 'catalogue:write',
  'DELETE /api/admin/gpu-sku/:id': 'catalogue:write',

  // Pricing: discounts, vouchers, tenant prices
  'GET /api/admin/promotions/scopes': 'pricing:read',
  'GET /api/admin/discounts': 'pricing:read',
  'POST /api/admin/discounts': 'pricing:write',
  'PUT /api/admin/discounts/:id': 'pricing:write',
  'DELETE /api/admin/discounts/:id': 'pricing:write',
  'PUT /api/admin/discounts/:id/status': 'pricing:write',
  'GET /api/admin/vouchers/configs': 'pricing:read',
  'POST /api/admin/vouchers/configs': 'pricing:write',
  'PUT /api/admin/vouchers/configs/:id': 'pricing:write',
  'DELETE /api/admin/vouchers/configs/:id': 'pricing:write',
  'PATCH /api/admin/vouchers/configs/:id/toggle': 'pricing:write',
  'POST /api/admin/voucher-distribution/preview': 'pricing:read',
  'POST /api/admin/voucher-distribution/execute': 'pricing:write',
  'GET /api/admin/voucher-distribution/history': 'pricing:read',
  'GET /api/admin/voucher-distribution/detail/:id': 'pricing:read',
  'GET /api/admin/tenants/:id/prices': 'pricing:read',
  'PUT /api/admin/tenants/:id/prices/:skuId': 'pricing:write',
  'DELETE /api/admin/tenants/:id/prices/:skuId': 'pricing:write',

  // Instances
  'GET /api/admin/user-management/instances': 'instances:read',
  'POST /api/admin/user-management/instances/:id/power-off': 'instances:write',
  'POST /api/admin/user-management/instances/:id/start': 'instances:write',
  'POST /api/admin/user-management/instances/:id/terminate': 'instances:write',
  'POST /api/admin/user-management/instances/:id/reset-system': 'instances:write',
  'GET /api/admin/instance-monitor/running-instances': 'instances:read',
  'POST /api/admin/instance-monitor/force-stop/:id': 'instances:write',
  'GET /api/admin/instance-monitor/statistics': 'instances:read',

  // Users
  'GET /api/admin/user-management/users': 'users:read',
  'GET /api/admin/user-management/statistics': 'users:read',

  // Finance
  'GET /api/admin/balance/warnings': 'finance:read',
  'GET /api/admin/balance/stats': 'finance:read',
  'GET /api/admin/balance/health': 'finance:read',
  'POST /api/admin/balance/check': 'finance:write',
  'POST /api/admin/users/:id/balance-adjustment': 'finance:write',

  // Tenants and branding
  'GET /api/admin/tenants': 'tenants:read',
  'POST /api/admin/tenants': 'tenants:write',
  'GET /api/admin/tenants/:id': 'tenants:read',
  'PUT /api/admin/tenants/:id': 'tenants:write',
  'POST /api/admin/uploads': 'tenants:write',

  // Enquiries
  'GET /api/admin/enquiries': 'enquiries:read',
  'POST /api/admin/enquiries/:id/handled': 'enquiries:write',
};

/** The table's key of a route as Fastify names it (`PUT /api/admin/hosts/:id`). */
export const routeKey = (method: string, url: string) => `${method.toUpperCase()} ${url}`;

/** Routes a tenant operator may not use even within its areas: it runs one tenant, never makes one. */
export const PLATFORM_ONLY_ROUTES: ReadonlySet<string> = new Set(['POST /api/admin/tenants']);
